package haproxytest

import (
	"bufio"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pires/go-proxyproto"
)

func TestTheHostingGuideShowsTheConfigTheTestsUse(t *testing.T) {
	want, err := HostingExample.Render()
	if err != nil {
		t.Fatal(err)
	}
	guide, err := os.ReadFile(filepath.Join("..", "..", "docs", "hosting.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(guide), want) {
		t.Errorf("docs/hosting.md does not show the configuration rendered from haproxy.cfg.tmpl; paste this in:\n%s", want)
	}
	// And HAProxy itself accepts it.
	file := filepath.Join(t.TempDir(), "haproxy.cfg")
	if err := os.WriteFile(file, []byte(want), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(Binary(t), "-c", "-f", file).CombinedOutput(); err != nil {
		t.Errorf("haproxy -c refuses the guide's configuration: %v\n%s", err, out)
	}
}

// backend accepts connections on a free loopback port and sends each one's
// PROXY header (nil for none) on the channel.
func backend(t *testing.T) (string, <-chan *proxyproto.Header) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	got := make(chan *proxyproto.Header, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				h, _ := proxyproto.ReadHeaderTimeout(c, bufio.NewReader(c), 5*time.Second)
				got <- h
			}()
		}
	}()
	return ln.Addr().String(), got
}

func TestHAProxySendsEachNodeAV2HeaderNamingTheClientInTurn(t *testing.T) {
	a, fromA := backend(t)
	b, fromB := backend(t)
	p := Start(t, Config{Nodes: []string{a, b}, Balance: "roundrobin", Source: "127.0.0.2"})
	if !strings.Contains(p.Config, "send-proxy-v2") || !strings.Contains(p.Config, "balance roundrobin") {
		t.Errorf("config:\n%s", p.Config)
	}
	for i, from := range []<-chan *proxyproto.Header{fromA, fromB, fromA} {
		c, err := net.Dial("tcp", p.Addr)
		if err != nil {
			t.Fatal(err)
		}
		c.Write([]byte("hello"))
		select {
		case h := <-from:
			if h == nil || h.Version != 2 {
				t.Fatalf("connection %d: header %+v, want a v2 header", i, h)
			}
			if h.SourceAddr.String() != c.LocalAddr().String() {
				t.Errorf("connection %d: header names %s, want the client %s", i, h.SourceAddr, c.LocalAddr())
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("connection %d reached no node, or not the next in turn", i)
		}
		c.Close()
	}
}

func TestAConfigNeedsAnAddressAndNodes(t *testing.T) {
	if _, err := (Config{Listen: ":1"}).Render(); err == nil {
		t.Error("a config without nodes rendered")
	}
	text, err := Config{Listen: ":1", Nodes: []string{"10.0.0.1:2"}}.Render()
	if err != nil || !strings.Contains(text, "balance leastconn") || !strings.Contains(text, "maxconn 4096") {
		t.Errorf("defaults: %v\n%s", err, text)
	}
}

func TestHealthChecksSendALocalHeader(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for HAProxy's first health check (up to 5 s)")
	}
	a, from := backend(t)
	Start(t, Config{Nodes: []string{a}, Check: true})
	select {
	case h := <-from:
		if h == nil || h.Version != 2 || !h.Command.IsLocal() {
			t.Errorf("health check header %+v, want v2 LOCAL", h)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("no health check within 15 s")
	}
}

// TestTheFrontendIsASocketTheTestKeeps: HAProxy serves a socket Start
// bound and keeps (fd@3), never a port chosen first and bound later that
// another program could take in between; a second HAProxy gets its own.
func TestTheFrontendIsASocketTheTestKeeps(t *testing.T) {
	a, from := backend(t)
	p := Start(t, Config{Nodes: []string{a}})
	q := Start(t, Config{Nodes: []string{a}})
	if !strings.Contains(p.Config, "bind fd@3\n") || p.Addr == q.Addr {
		t.Errorf("frontends %s and %s; config:\n%s", p.Addr, q.Addr, p.Config)
	}
	c, err := net.Dial("tcp", p.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write([]byte("hello"))
	select {
	case h := <-from:
		if h == nil || h.SourceAddr.String() != c.LocalAddr().String() {
			t.Errorf("header %+v, want one naming %s", h, c.LocalAddr())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a connection to the kept socket reached no node")
	}
}
