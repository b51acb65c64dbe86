package guard

import (
	"bytes"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/pires/go-proxyproto"
)

func TestTrustedRangesMatchMappedIPv4AndNothingElse(t *testing.T) {
	tr, err := ParseRanges([]string{"10.0.0.0/24", "fd00::5"})
	if err != nil {
		t.Fatal(err)
	}
	for addr, want := range map[string]bool{
		"10.0.0.7:1000":           true,
		"[::ffff:10.0.0.7]:1000":  true, // a dual-stack listener reports IPv4 so
		"10.0.1.7:1000":           false,
		"[fd00::5]:22":            true,
		"[fd00::6]:22":            false,
		"127.0.0.1:5":             false,
		"[::ffff:127.0.0.1]:1000": false,
	} {
		a, _ := net.ResolveTCPAddr("tcp", addr)
		if got := tr.contains(a); got != want {
			t.Errorf("contains(%s) = %v, want %v", addr, got, want)
		}
	}
	if (Ranges{}).contains(&net.TCPAddr{IP: net.IPv4(10, 0, 0, 1)}) {
		t.Error("no ranges trusted an address")
	}
}

// pipeConn is one end of a loopback TCP connection whose other end has
// sent sent and then waits (closing it at cleanup), or with done closes
// its writing side at once (the server then reads to the end).
func pipeConn(t *testing.T, sent []byte, done ...bool) net.Conn {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	peer, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	c, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { peer.Close(); c.Close() })
	if _, err := peer.Write(sent); err != nil {
		t.Fatal(err)
	}
	if len(done) > 0 && done[0] {
		peer.(*net.TCPConn).CloseWrite()
	}
	return c
}

// v2Header is the binary PROXY header HAProxy's send-proxy-v2 writes for a
// client at from.
func v2Header(t *testing.T, from string) []byte {
	t.Helper()
	src, _ := net.ResolveTCPAddr("tcp", from)
	dst, _ := net.ResolveTCPAddr("tcp", "127.0.0.1:23234")
	h := proxyproto.HeaderProxyFromAddrs(2, src, dst)
	b, err := h.Format()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestAHeaderNamesTheClientAndTheBytesAfterItReachTheServer(t *testing.T) {
	for _, tc := range []struct {
		name   string
		header []byte
	}{
		{"v2", v2Header(t, "203.0.113.9:41000")},
		{"v1", []byte("PROXY TCP4 203.0.113.9 127.0.0.1 41000 23234\r\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := pipeConn(t, append(tc.header, "SSH-2.0-test\r\n"...))
			pc, err := readProxyHeader(c, true, time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if got := pc.RemoteAddr().String(); got != "203.0.113.9:41000" {
				t.Errorf("RemoteAddr = %s, want the header's client 203.0.113.9:41000", got)
			}
			line := make([]byte, len("SSH-2.0-test\r\n"))
			if _, err := io.ReadFull(pc, line); err != nil || string(line) != "SSH-2.0-test\r\n" {
				t.Errorf("after the header: %q, %v", line, err)
			}
		})
	}
}

func TestAHealthCheckHeaderKeepsTheBalancersAddress(t *testing.T) {
	h := &proxyproto.Header{Version: 2, Command: proxyproto.LOCAL, TransportProtocol: proxyproto.UNSPEC}
	b, err := h.Format()
	if err != nil {
		t.Fatal(err)
	}
	c := pipeConn(t, b)
	pc, err := readProxyHeader(c, true, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if pc.RemoteAddr().String() != c.RemoteAddr().String() {
		t.Errorf("RemoteAddr = %s, want the socket's %s", pc.RemoteAddr(), c.RemoteAddr())
	}
}

func TestWhoMaySendAHeader(t *testing.T) {
	ssh := []byte("SSH-2.0-OpenSSH_9.2\r\n")
	for _, tc := range []struct {
		name     string
		sent     []byte
		required bool // from a trusted balancer
		want     error
	}{
		{"a balancer without a header is refused", ssh, true, errNoProxyHeader},
		{"a balancer that sends nothing in time is refused", nil, true, errNoProxyHeader},
		{"a balancer with a damaged header is refused", append(v2Header(t, "203.0.113.9:1")[:12], 0x21, 0x11, 0xff, 0xff), true, nil},
		{"anyone else with a v2 header is refused", append(v2Header(t, "203.0.113.9:1"), ssh...), false, errUntrustedProxyHeader},
		{"anyone else with a v1 header is refused", append([]byte("PROXY TCP4 1.2.3.4 5.6.7.8 1 2\r\n"), ssh...), false, errUntrustedProxyHeader},
		{"anyone else with a damaged header is refused", []byte("PROXY nonsense\r\n"), false, errUntrustedProxyHeader},
		{"anyone else without a header is served", ssh, false, nil},
		{"anyone else silent for a while is served", nil, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := pipeConn(t, tc.sent)
			pc, err := readProxyHeader(c, tc.required, 200*time.Millisecond)
			refusedDamaged := tc.required && tc.want == nil
			switch {
			case refusedDamaged:
				if err == nil || !strings.Contains(err.Error(), "damaged PROXY") {
					t.Errorf("err = %v, want a damaged header", err)
				}
			case tc.want != nil:
				if !errors.Is(err, tc.want) {
					t.Errorf("err = %v, want %v", err, tc.want)
				}
			case err != nil:
				t.Errorf("refused: %v", err)
			default:
				if pc.RemoteAddr().String() != c.RemoteAddr().String() {
					t.Errorf("RemoteAddr = %s, want the socket's", pc.RemoteAddr())
				}
				got := make([]byte, len(tc.sent))
				if _, err := io.ReadFull(pc, got); err != nil || !bytes.Equal(got, tc.sent) {
					t.Errorf("the server reads %q, %v; want what the client sent", got, err)
				}
			}
		})
	}
}

// FuzzProxyHeader feeds arbitrary first bytes to the header check, from a
// balancer and from anyone else: it must never panic, a refusal comes
// with no connection, and a connection served from anyone else reads back
// every byte that was sent.
func FuzzProxyHeader(f *testing.F) {
	f.Add([]byte("SSH-2.0-OpenSSH_9.2\r\n"), false)
	f.Add([]byte("PROXY TCP4 203.0.113.9 127.0.0.1 41000 23234\r\nSSH-2.0-x\r\n"), true)
	f.Add([]byte("PROXY UNKNOWN\r\n"), true)
	f.Add([]byte("\r\n\r\n\x00\r\nQUIT\n\x21\x11\x00\x0c\xcb\x00\x71\x09\x7f\x00\x00\x01\xa0\x28\x5a\xd2"), true)
	f.Add([]byte("\r\n\r\n\x00\r\nQUIT\n\x21\x11\xff\xff"), false)
	f.Fuzz(func(t *testing.T, sent []byte, required bool) {
		// In memory (no sockets, thousands a second): the client sends
		// and hangs up, so nothing waits for the timeout.
		c, peer := net.Pipe()
		defer c.Close()
		go func() { peer.Write(sent); peer.Close() }()
		pc, err := readProxyHeader(c, required, 50*time.Millisecond)
		if err != nil {
			if pc != nil {
				t.Fatal("a refusal returned a connection")
			}
			return
		}
		if !required {
			got, _ := io.ReadAll(io.LimitReader(pc, int64(len(sent)+1)))
			if !bytes.Equal(got, sent) {
				t.Fatalf("served without a header but read %q of %q", got, sent)
			}
		}
	})
}
