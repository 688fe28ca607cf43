// A flag's value, a context's attributes and a rule's data are `JSONValue`s: an app that imports Tweaks
// names them without importing JSONValues too.
@_exported public import JSONValues

