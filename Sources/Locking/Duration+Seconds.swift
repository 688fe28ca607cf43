extension Duration {
    /// The duration in seconds, fractions included: for the APIs that take a `TimeInterval`, and for
    /// showing it in seconds or milliseconds.
    package var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
