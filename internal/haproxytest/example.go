// The configuration docs/hosting.md shows, rendered from the same template
// as the tests' (example_test.go checks that the guide shows exactly it).

package haproxytest

// HostingExample is the configuration in docs/hosting.md: three nodes on a
// private network behind one address, new players to the node with the
// fewest connections, each node health-checked on its /readyz (each runs
// with --metrics on port 9100 of its private address, and --drain).
var HostingExample = Config{
	Listen:  ":23234",
	Nodes:   []string{"10.0.0.11:23234", "10.0.0.12:23234", "10.0.0.13:23234"},
	Balance: "leastconn",
	MaxConn: 4000,
	Check:   true,
	Ready:   []string{"10.0.0.11:9100", "10.0.0.12:9100", "10.0.0.13:9100"},
}
