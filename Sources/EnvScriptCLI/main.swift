print("envscript")
