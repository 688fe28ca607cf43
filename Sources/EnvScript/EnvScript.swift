// The EnvScript runtime.
