// Package haproxytest runs a real HAProxy in front of grotto nodes for
// tests: it renders the configuration the hosting guide shows
// (docs/hosting.md: TCP mode, `send-proxy-v2` to every node, long
// timeouts) from one template, starts `haproxy -f` on a loopback socket
// the test binds and keeps (handed to HAProxy as `bind fd@3`, so its port
// is never free for another program to take) and stops it at the test's
// cleanup.
//
// HAProxy comes from the system (Debian: `apt-get install -y haproxy`;
// .ci/run installs it when missing). Without it a test fails with a
// message saying so, unless it runs with -short, where it is skipped.
package haproxytest

import (
	"bufio"
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"text/template"
	"time"
)

//go:embed haproxy.cfg.tmpl
var configTemplate string

var tmpl = template.Must(template.New("haproxy.cfg").Funcs(template.FuncMap{
	"inc": func(i int) int { return i + 1 },
	// ready is " addr HOST port PORT" for node i's /readyz, "" without.
	"ready": func(ready []string, i int) (string, error) {
		if len(ready) == 0 {
			return "", nil
		}
		if i >= len(ready) {
			return "", errors.New("haproxytest: a Ready address for every node")
		}
		host, port, err := net.SplitHostPort(ready[i])
		if err != nil {
			return "", err
		}
		return " addr " + host + " port " + port, nil
	},
}).Parse(configTemplate))

// Config is HAProxy's configuration for grotto: one TCP frontend and the
// nodes behind it, each sent a PROXY protocol v2 header.
type Config struct {
	// Listen is the frontend's address, host:port (":22", "127.0.0.1:2222"),
	// or HAProxy's "fd@N" for a socket it inherits. Start fills it with
	// the socket it binds on loopback port 0 when empty.
	Listen string
	// Nodes are the grotto nodes' SSH addresses, host:port.
	Nodes []string
	// Balance is HAProxy's balance algorithm: "leastconn" for hosts (a new
	// player goes to the node with the fewest sessions), "roundrobin" in
	// tests (connections alternate between nodes, in order). "" means
	// leastconn.
	Balance string
	// Source, when not "", is the address HAProxy connects to the nodes
	// from (its `source` keyword); tests use a second loopback address,
	// 127.0.0.2, so that the balancer and the clients differ.
	Source string
	// MaxConn is HAProxy's global connection cap (`maxconn`); 0 means 4096.
	MaxConn int
	// Check health-checks each node every 2 s, taking a node that stops
	// answering out of the rotation after two failed checks.
	Check bool
	// Ready, when not empty, is each node's --metrics address (host:port,
	// in the order of Nodes): the checks ask its /readyz, so that a node
	// draining for a shutdown (--drain) leaves the rotation while it still
	// serves. Empty checks the SSH port for a banner.
	Ready []string
}

// Render returns the HAProxy configuration file for c.
func (c Config) Render() (string, error) {
	if c.Balance == "" {
		c.Balance = "leastconn"
	}
	if c.MaxConn == 0 {
		c.MaxConn = 4096
	}
	if c.Listen == "" || len(c.Nodes) == 0 {
		return "", errors.New("haproxytest: a config needs a listen address and at least one node")
	}
	var b bytes.Buffer
	if err := tmpl.Execute(&b, c); err != nil {
		return "", err
	}
	return b.String(), nil
}

// Binary returns the path of the haproxy program. Without one, it skips
// the test under -short and fails it otherwise, saying how to install it.
func Binary(tb testing.TB) string {
	tb.Helper()
	for _, p := range []string{"haproxy", "/usr/sbin/haproxy", "/usr/local/sbin/haproxy"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	if testing.Short() {
		tb.Skip("haproxy is not installed (apt-get install -y haproxy); skipped under -short")
	}
	tb.Fatal("haproxy is not installed: apt-get install -y haproxy (.ci/run installs it when missing); run with -short to skip the tests that need it")
	return ""
}

// Proxy is a running HAProxy.
type Proxy struct {
	// Addr is the frontend's address, where clients connect.
	Addr string
	// Config is the configuration it runs, as written to its file.
	Config string
	cmd    *exec.Cmd
	out    *syncBuffer
}

// Output returns what HAProxy has written to stdout and stderr so far.
func (p *Proxy) Output() string { return p.out.String() }

// Start renders c and starts `haproxy -W -db -f FILE`, returning once
// the frontend listens. With c.Listen empty, the frontend is a socket
// Start binds on loopback port 0 and keeps for the test, handed to HAProxy
// as fd 3 (`bind fd@3`); Proxy.Addr is its address. The process is
// stopped at tb's cleanup, and killed if the test process dies first; its
// output is logged when the test fails. Failing to start fails tb.
func Start(tb testing.TB, c Config) *Proxy {
	tb.Helper()
	bin := Binary(tb)
	var sock *os.File
	addr := c.Listen
	if c.Listen == "" {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { ln.Close() })
		if sock, err = ln.(*net.TCPListener).File(); err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { sock.Close() })
		c.Listen, addr = "fd@3", ln.Addr().String()
	}
	p, err := start(tb, bin, c, addr, sock)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// loaded is what HAProxy's master process prints once its worker runs
// the configuration (master-worker mode, -W).
const loaded = "Loading success."

// start runs HAProxy on c, whose frontend is addr: the inherited socket
// sock (fd 3) when not nil, else an address HAProxy binds itself.
func start(tb testing.TB, bin string, c Config, addr string, sock *os.File) (*Proxy, error) {
	text, err := c.Render()
	if err != nil {
		return nil, err
	}
	file := filepath.Join(tb.TempDir(), "haproxy.cfg")
	if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
		return nil, err
	}
	out := &syncBuffer{}
	cmd := exec.Command(bin, "-W", "-db", "-f", file)
	cmd.Stdout, cmd.Stderr = out, out
	if sock != nil {
		cmd.ExtraFiles = []*os.File{sock} // fd 3
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	// Wait returns at most this long after the master exits, even if a
	// worker it forked still holds the output pipe: every <-exited below,
	// after a kill, has a deadline.
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start haproxy: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	p := &Proxy{Addr: addr, Config: text, cmd: cmd, out: out}
	deadline := time.Now().Add(10 * time.Second)
	// A kept socket listens before HAProxy runs: wait for the master's
	// word that the worker serves it. An address of its own: wait for the
	// kernel to show it listening.
	for !strings.Contains(out.String(), loaded) || (sock == nil && !listening(addr)) {
		select {
		case err := <-exited:
			return nil, fmt.Errorf("haproxy exited at start (%v):\n%s\nconfig:\n%s", err, out, text)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			<-exited
			return nil, fmt.Errorf("haproxy did not listen on %s within 10 s:\n%s", addr, out)
		}
	}
	tb.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
		if tb.Failed() {
			tb.Logf("haproxy output:\n%s", out)
		}
	})
	return p, nil
}

// listening reports whether a socket listens on addr, an IPv4 host:port,
// from the kernel's table (/proc/net/tcp) rather than by connecting: a
// probe connection would reach a node through HAProxy, and shift the
// roundrobin order that tests count on.
func listening(addr string) bool {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	n, err := strconv.Atoi(port)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host).To4()
	if host == "" || host == "0.0.0.0" {
		ip = net.IPv4zero.To4()
	}
	if ip == nil {
		return false
	}
	// /proc/net/tcp: "sl local_address rem_address st ...", addresses as
	// little-endian hex IP ":" hex port, st 0A for LISTEN.
	want := fmt.Sprintf("%02X%02X%02X%02X:%04X", ip[3], ip[2], ip[1], ip[0], n)
	f, err := os.Open("/proc/net/tcp")
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) > 3 && fields[1] == want && fields[3] == "0A" {
			return true
		}
	}
	return false
}

// syncBuffer is a bytes.Buffer safe for HAProxy's output and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
