// The listening sockets grotto is handed instead of binding them itself:
// systemd socket activation (sd_listen_fds(3): LISTEN_PID, LISTEN_FDS,
// LISTEN_FDNAMES), read by github.com/coreos/go-systemd's activation
// package. A host's .socket unit holds the ports across restarts, so a
// restart refuses no connection (they wait in the socket's queue), and
// grotto needs no right to bind a low port; the fault suite hands its
// grotto processes sockets it keeps, so a restarted process is on the same
// address and no port is ever free for another program to take.

package main

import (
	"fmt"
	"maps"
	"net"
	"slices"
	"strings"

	"github.com/coreos/go-systemd/v22/activation"

	"github.com/grotto-game/grotto/server"
)

// bindPprof is the name of the --pprof socket (the others are server's
// Bind names: server.BindSSH, …).
const bindPprof = "pprof"

// socketFlag is the flag whose address each socket name serves.
func socketFlag(name string) string {
	switch name {
	case server.BindSSH:
		return "--listen"
	case server.BindHTTP:
		return "--http"
	case server.BindMetrics:
		return "--metrics"
	case server.BindNode:
		return "--cluster-listen"
	case bindPprof:
		return "--pprof"
	}
	return ""
}

// sockets are the listening sockets grotto was handed, by name: "ssh",
// "http", "metrics", "node" (--cluster-listen) or "pprof". Each serves in
// place of binding its flag's address. nil holds none.
type sockets map[string]net.Listener

// activated returns the sockets systemd passed this process, and unsets
// the variables that passed them (so no child inherits them). Without
// LISTEN_PID naming this process it returns none. Errors: see
// namedSockets.
func activated() (sockets, error) {
	got, err := activation.ListenersWithNames()
	if err != nil {
		return nil, fmt.Errorf("socket activation: %w", err)
	}
	return namedSockets(got)
}

// namedSockets checks the sockets systemd passed (by their
// FileDescriptorName=): a name grotto serves is used for its flag; a lone
// socket of another name (systemd names a socket after its unit unless
// told, e.g. grotto.socket) serves SSH. Errors name the socket: another
// name beside others, or two sockets of one name.
func namedSockets(got map[string][]net.Listener) (sockets, error) {
	if len(got) == 0 {
		return nil, nil
	}
	if len(got) == 1 {
		for name, lns := range got {
			if socketFlag(name) == "" && len(lns) == 1 {
				return sockets{server.BindSSH: lns[0]}, nil
			}
		}
	}
	s := sockets{}
	for _, name := range slices.Sorted(maps.Keys(got)) {
		lns := got[name]
		if socketFlag(name) == "" {
			return nil, fmt.Errorf("systemd passed a socket named %q; name each grotto socket (FileDescriptorName=) one of ssh, http, metrics, node, pprof", name)
		}
		if len(lns) > 1 {
			return nil, fmt.Errorf("systemd passed %d sockets named %q; grotto serves one of each name", len(lns), name)
		}
		s[name] = lns[0]
	}
	return s, nil
}

// check refuses a socket whose flag is off in cfg (a web socket without
// --http would be held with nobody answering it), and a pprof socket off
// loopback (the profiler must not face players, as --pprof's own check).
func (s sockets) check(cfg server.Config) error {
	set := map[string]string{server.BindSSH: cfg.Listen, server.BindHTTP: cfg.HTTP, server.BindMetrics: cfg.Metrics,
		server.BindNode: cfg.ClusterListen, bindPprof: cfg.Pprof}
	for _, name := range slices.Sorted(maps.Keys(s)) {
		if set[name] == "" {
			return fmt.Errorf("systemd passed the %s socket (%s) but %s is off; set %s too, to the socket's address", name, s[name].Addr(), socketFlag(name), socketFlag(name))
		}
		if name == bindPprof {
			if a, ok := s[name].Addr().(*net.TCPAddr); !ok || !a.IP.IsLoopback() {
				return fmt.Errorf("systemd passed the pprof socket on %s; it must be on loopback (127.0.0.1 or ::1)", s[name].Addr())
			}
		}
	}
	return nil
}

// bind is server.Config.Bind (and --pprof's): the socket named name when
// grotto was handed one, each once, else a new listener on addr.
func (s sockets) bind(name, addr string) (net.Listener, error) {
	if ln, ok := s[name]; ok {
		delete(s, name)
		return ln, nil
	}
	return net.Listen("tcp", addr)
}

// String lists the sockets' names and addresses, for the log.
func (s sockets) String() string {
	var b []string
	for name, ln := range s {
		b = append(b, name+"="+ln.Addr().String())
	}
	slices.Sort(b)
	return strings.Join(b, " ")
}
