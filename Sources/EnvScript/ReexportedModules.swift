// What an app that imports EnvScript sees besides the runtime itself: the one value type (JSONValue),
// the values and errors of the operations layer (ContainerView, HostError...), and with the `Control`
// trait the control plane's settings (OFREPListener, AllowedOrigins, ServerLimits) and errors.
@_exported public import JSONValues
@_exported public import EnvScriptOperations
#if Control
@_exported public import EnvScriptControl
#endif
