package server

// grotto nodes behind a real HAProxy (internal/haproxytest) that sends the
// PROXY protocol v2 from 127.0.0.2, while clients connect from 127.0.0.1
// (and 127.0.0.3): what the nodes record must be the client's address, and
// only the balancer may name one.

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"charm.land/log/v2"
	"github.com/pires/go-proxyproto"
	"github.com/prometheus/client_golang/prometheus/testutil"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/grotto-game/grotto/internal/await"
	"github.com/grotto-game/grotto/internal/haproxytest"
	"github.com/grotto-game/grotto/server/metrics"
)

// balancerIP is where HAProxy connects to the nodes from in these tests:
// another loopback address than the clients'.
const balancerIP = "127.0.0.2"

// node is one grotto server of a test, with its log.
type node struct {
	addr string
	logs *lockedBuffer
}

// startNode runs a grotto node trusting the balancer's PROXY headers, with
// the host key in hostKey ("" for its own) and lim (zero for serve's).
func startNode(t *testing.T, hostKey string, lim Limits) node {
	t.Helper()
	logs := &lockedBuffer{}
	_, addr := serve(t, Config{HostKey: hostKey, ProxyProtocolFrom: []string{balancerIP}, Limits: lim,
		Logger: log.NewWithOptions(logs, log.Options{Level: log.DebugLevel})})
	return node{addr: addr, logs: logs}
}

// dialFrom opens a TCP connection to addr from the loopback address local.
func dialFrom(t *testing.T, local, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}, Timeout: waitLong}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// sshOver runs the SSH handshake on c with a new key and hostKey checking
// the server's key.
func sshOver(t *testing.T, c net.Conn, addr string, hostKey gossh.HostKeyCallback) (*gossh.Client, error) {
	t.Helper()
	c.SetDeadline(time.Now().Add(waitLong))
	sc, chans, reqs, err := gossh.NewClientConn(c, addr, &gossh.ClientConfig{User: "tester",
		Auth: []gossh.AuthMethod{gossh.PublicKeys(newKey(t))}, HostKeyCallback: hostKey})
	if err != nil {
		c.Close()
		return nil, err
	}
	c.SetDeadline(time.Time{})
	cl := gossh.NewClient(sc, chans, reqs)
	t.Cleanup(func() { cl.Close() })
	return cl, nil
}

// scores runs `scores` on the connection, as a player would with
// `ssh host scores`, and fails the test unless it answers.
func scores(t *testing.T, cl *gossh.Client) {
	t.Helper()
	sess, err := cl.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if out, err := sess.Output("scores"); err != nil {
		t.Fatalf("scores: %v (%q)", err, out)
	}
}

// logged reports whether the node's log records a session from the client
// at addr, in the remote-addr the server uses for its per-address limits
// and its logs.
func (n node) logged(addr net.Addr) bool {
	return strings.Contains(n.logs.String(), "remote-addr="+addr.String()+" ")
}

func TestThroughHAProxyAClientReachesEachNodeWithOneHostKeyAndItsOwnAddress(t *testing.T) {
	shared := filepath.Join(t.TempDir(), "grotto_host_key") // made by the first node, read by the second
	nodes := []node{startNode(t, shared, Limits{}), startNode(t, shared, Limits{})}
	p := haproxytest.Start(t, haproxytest.Config{Nodes: []string{nodes[0].addr, nodes[1].addr},
		Balance: "roundrobin", Source: balancerIP})

	// The first connection learns the host key, as ssh writes it to
	// known_hosts; the second, balanced to the other node, checks it
	// against that file as ssh does ("host key changed" otherwise).
	knownHosts := filepath.Join(t.TempDir(), "known_hosts")
	learn := func(hostname string, remote net.Addr, key gossh.PublicKey) error {
		line := knownhosts.Line([]string{knownhosts.Normalize(p.Addr)}, key)
		return os.WriteFile(knownHosts, []byte(line+"\n"), 0o600)
	}
	var clients []net.Addr
	for i := range 2 {
		check := learn
		if i > 0 {
			var err error
			if check, err = knownhosts.New(knownHosts); err != nil {
				t.Fatal(err)
			}
		}
		c := dialFrom(t, "127.0.0.1", p.Addr)
		clients = append(clients, c.LocalAddr())
		cl, err := sshOver(t, c, p.Addr, check)
		if err != nil {
			t.Fatalf("connection %d through HAProxy: %v", i+1, err)
		}
		scores(t, cl)
	}
	// A game through the balancer (on the first node again): a terminal,
	// the title, a new game.
	newGame(t, dial(t, p.Addr, newKey(t), 80, 24))
	// Each node saw one of the two clients, by the client's own address
	// and port (never the balancer's).
	for i, n := range nodes {
		if !n.logged(clients[i]) || n.logged(clients[1-i]) {
			t.Errorf("node %d: want the session of client %s only (roundrobin); its log:\n%s", i+1, clients[i], n.logs)
		}
		if strings.Contains(n.logs.String(), "remote-addr="+balancerIP) {
			t.Errorf("node %d recorded the balancer's address as a client's:\n%s", i+1, n.logs)
		}
	}
}

func TestThroughHAProxyThePerAddressCapCountsClientsNotTheBalancer(t *testing.T) {
	lim := DefaultLimits()
	lim.ConnPer10s, lim.MaxConnsPerAddr = 10000, 1
	n := startNode(t, "", lim)
	p := haproxytest.Start(t, haproxytest.Config{Nodes: []string{n.addr}, Balance: "roundrobin", Source: balancerIP})

	// One connection from each of two clients: both in, though both come
	// from the balancer's one address.
	for _, ip := range []string{"127.0.0.1", "127.0.0.3"} {
		cl, err := sshOver(t, dialFrom(t, ip, p.Addr), p.Addr, gossh.InsecureIgnoreHostKey())
		if err != nil {
			t.Fatalf("the first connection from %s through HAProxy was refused: %v", ip, err)
		}
		scores(t, cl)
	}
	// A second from 127.0.0.1 is over its cap of 1: told why.
	raw := dialFrom(t, "127.0.0.1", p.Addr)
	defer raw.Close()
	raw.SetReadDeadline(time.Now().Add(waitLong))
	said, _ := io.ReadAll(raw)
	if !strings.Contains(string(said), "too many connections from your address") {
		t.Errorf("a second connection from 127.0.0.1 was told %q, want the per-address cap", said)
	}
	if !regexp.MustCompile(`refused connections beyond the per-address cap addr=127\.0\.0\.1 `).MatchString(n.logs.String()) {
		t.Errorf("the log does not name the client 127.0.0.1 as over the cap:\n%s", n.logs)
	}
}

func TestADirectConnectionIsServedButNotIfItCarriesAPROXYHeader(t *testing.T) {
	n := startNode(t, "", Limits{})

	// Without a header, from an address not in --proxy-protocol-from:
	// served as always, under its own address.
	c := dialFrom(t, "127.0.0.1", n.addr)
	client := c.LocalAddr()
	cl, err := sshOver(t, c, n.addr, gossh.InsecureIgnoreHostKey())
	if err != nil {
		t.Fatalf("a direct connection without a header was refused: %v", err)
	}
	scores(t, cl)
	if !n.logged(client) {
		t.Errorf("the direct session is not logged from %s:\n%s", client, n.logs)
	}

	// With a header claiming another client: refused, logged, and the
	// claimed address never used.
	c = dialFrom(t, "127.0.0.1", n.addr)
	claimed := &net.TCPAddr{IP: net.ParseIP("203.0.113.9"), Port: 4242}
	if _, err := proxyproto.HeaderProxyFromAddrs(2, claimed, c.RemoteAddr()).WriteTo(c); err != nil {
		t.Fatal(err)
	}
	if cl, err := sshOver(t, c, n.addr, gossh.InsecureIgnoreHostKey()); err == nil {
		cl.Close()
		t.Fatal("a PROXY header from 127.0.0.1, not in --proxy-protocol-from, was accepted")
	}
	logs := n.logs.String()
	if !strings.Contains(logs, "refused a connection that sent a PROXY header from an address not in --proxy-protocol-from addr=127.0.0.1:") {
		t.Errorf("the refusal is not logged with the sender's address:\n%s", logs)
	}
	if strings.Contains(logs, "203.0.113.9") {
		t.Errorf("the address in the refused header reached the log:\n%s", logs)
	}
}

func TestTheBalancerWithoutAPROXYHeaderIsRefusedAndLogged(t *testing.T) {
	n := startNode(t, "", Limits{})
	if cl, err := sshOver(t, dialFrom(t, balancerIP, n.addr), n.addr, gossh.InsecureIgnoreHostKey()); err == nil {
		cl.Close()
		t.Fatal("a connection from the trusted balancer without a PROXY header was served")
	}
	if !regexp.MustCompile(`ERRO.*without a valid PROXY header balancer=127\.0\.0\.2:\d+ err=.*send-proxy-v2`).MatchString(n.logs.String()) {
		t.Errorf("the misconfigured balancer is not logged as an error naming it and send-proxy-v2:\n%s", n.logs)
	}
}

// A node that begins to shut down leaves HAProxy's rotation while it still
// serves: HAProxy asks each node's /readyz (the hosting guide's
// configuration), the draining node answers 503, and new players go to the
// other node, none of them refused on the way (found behind HAProxy: a
// node refused connections the instant SIGTERM came, while HAProxy still
// counted it up for 2–4 s, and leastconn sent new players to the emptied
// node first).
func TestThroughHAProxyADrainingNodeLeavesTheRotationBeforeItRefusesAnyone(t *testing.T) {
	var nodes []node
	var servers []*Server
	var ready []string
	for range 2 {
		logs := &lockedBuffer{}
		srv, addr := serve(t, Config{ProxyProtocolFrom: []string{balancerIP}, Metrics: "127.0.0.1:0", Drain: MaxDrain,
			Logger: log.NewWithOptions(logs, log.Options{Level: log.DebugLevel})})
		nodes, servers = append(nodes, node{addr: addr, logs: logs}), append(servers, srv)
		ready = append(ready, srv.MetricsAddr().String())
	}
	p := haproxytest.Start(t, haproxytest.Config{Nodes: []string{nodes[0].addr, nodes[1].addr},
		Balance: "roundrobin", Source: balancerIP, Check: true, Ready: ready})
	// through dials HAProxy, runs `scores` as a player would, and returns
	// the node that served it.
	through := func() int {
		t.Helper()
		c := dialFrom(t, "127.0.0.1", p.Addr)
		cl, err := sshOver(t, c, p.Addr, gossh.InsecureIgnoreHostKey())
		if err != nil {
			t.Fatalf("a connection through HAProxy failed: %v\n%s", err, p.Output())
		}
		scores(t, cl)
		cl.Close()
		for i, n := range nodes {
			if n.logged(c.LocalAddr()) {
				return i
			}
		}
		t.Fatalf("no node logged the session of %s", c.LocalAddr())
		return -1
	}
	served := map[int]bool{}
	if !await.Within(waitLong, func() bool { served[through()] = true; return len(served) == 2 }) {
		t.Fatalf("HAProxy never sent a connection to both nodes: %v\n%s", served, p.Output())
	}

	ctx, cancel := context.WithTimeout(context.Background(), 3*waitLong)
	defer cancel()
	stopped := make(chan error, 1)
	go func() { stopped <- servers[0].Shutdown(ctx) }()
	if !await.Within(waitLong, func() bool {
		code, _ := probe("http://" + ready[0] + "/readyz")
		return code == http.StatusServiceUnavailable
	}) {
		t.Fatal("node 1 never said it was not ready")
	}
	// Every connection is served while HAProxy learns it (two failed
	// checks); then four in a row go to node 2, with node 1 still up.
	run := 0
	if !await.Within(3*waitLong, func() bool {
		if through() == 1 {
			run++
		} else {
			run = 0
		}
		return run == 4
	}) {
		t.Fatalf("new connections still reach the draining node:\n%s", p.Output())
	}
	select {
	case err := <-stopped:
		t.Fatalf("node 1 stopped during its drain: %v", err)
	default:
	}
	servers[0].CutDrain()
	if err := await.Recv(t, 3*waitLong, "node 1's shutdown after the drain", stopped); err != nil {
		t.Fatal(err)
	}
}

// HAProxy's health checks of the SSH port (a PROXY header with the LOCAL
// command, then the banner) are the balancer's, not players': they are
// counted apart in grotto_connections_total (found: a host's dashboard
// showed a connection every 2 s per balancer, all checks).
func TestThroughHAProxyHealthChecksAreNotCountedAsPlayers(t *testing.T) {
	srv, addr := serve(t, Config{ProxyProtocolFrom: []string{balancerIP}})
	haproxytest.Start(t, haproxytest.Config{Nodes: []string{addr}, Source: balancerIP, Check: true})
	conns := srv.Metrics().Connections
	if !await.Within(3*waitLong, func() bool { return testutil.ToFloat64(conns.WithLabelValues(metrics.ConnHealthCheck)) >= 2 }) {
		t.Fatalf("health checks counted: %v, want 2 within %v", testutil.ToFloat64(conns.WithLabelValues(metrics.ConnHealthCheck)), 3*waitLong)
	}
	if n := testutil.ToFloat64(conns.WithLabelValues(metrics.ConnAccepted)); n != 0 {
		t.Errorf("grotto_connections_total{result=\"accepted\"} = %v with no player, want 0", n)
	}
}
