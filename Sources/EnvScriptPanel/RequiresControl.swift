#if !Control
#error("EnvScriptPanel serves a host's control API: add the EnvScript package with its Control trait (it is among the default traits)")
#endif
