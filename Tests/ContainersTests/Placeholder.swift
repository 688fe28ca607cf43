// ContainersTests
