// EnvScriptTests
