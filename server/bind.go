// Opening the server's listening sockets: by net.Listen, or through
// Config.Bind (systemd socket activation, tests' kept listeners).

package server

import "net"

// The names Config.Bind is called with, one for each address the server
// listens on. They are also the names of systemd's sockets
// (FileDescriptorName=, LISTEN_FDNAMES) that cmd/grotto serves them on.
const (
	BindSSH     = "ssh"     // Config.Listen, the players' SSH
	BindHTTP    = "http"    // Config.HTTP, the web pages
	BindMetrics = "metrics" // Config.Metrics, Prometheus's /metrics
	BindNode    = "node"    // Config.ClusterListen, the node channel
)

// bind opens the listener of addr, the address named name (BindSSH, …),
// through Config.Bind when it is set.
func (s *Server) bind(name, addr string) (net.Listener, error) {
	if s.cfg.Bind != nil {
		return s.cfg.Bind(name, addr)
	}
	return net.Listen("tcp", addr)
}
