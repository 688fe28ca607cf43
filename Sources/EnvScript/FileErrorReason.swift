package import Preferences

/// Why a file operation failed, in plain words (see `Preferences.FileErrorReason`): it lives with the
/// stores, the lowest module that reads files, so that the tweak engine words its file errors the same.
package typealias FileErrorReason = Preferences.FileErrorReason
