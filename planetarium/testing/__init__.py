"""Tools for checking domains: brute-force semantics and a conformance kit for plug-in authors."""
