package server

import (
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"charm.land/log/v2"

	"github.com/grotto-game/grotto/server/guard"

	gossh "golang.org/x/crypto/ssh"
)

// dialNoSession opens an authenticated connection that opens no session.
//
// It returns once the server has answered a global request on the
// connection, so the server has finished its side of the handshake: a test
// that ends at once must not shut the server down while charm.land/ssh is
// still between the handshake and counting the connection (server.go,
// handleConn → trackConn: connWg.Add racing Shutdown's connWg.Wait, an
// upstream race the race detector reports).
func dialNoSession(t *testing.T, addr string) (*gossh.Client, error) {
	t.Helper()
	c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: "idler", Auth: []gossh.AuthMethod{gossh.PublicKeys(newKey(t))},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: waitLong})
	if err != nil {
		return nil, err
	}
	c.SendRequest("grotto-test-sync", true, nil) // any answer will do
	return c, nil
}

func TestOneAddressCannotHoldHundredsOfConnections(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	lim := DefaultLimits()
	lim.ConnPer10s, lim.IdleTimeout = 10000, 0 // idle checks off: the cap alone must hold
	_, addr := serve(t, Config{Limits: lim})
	const tries = 300
	var mu sync.Mutex
	var held []*gossh.Client
	var wg sync.WaitGroup
	for range tries {
		wg.Go(func() {
			if c, err := dialNoSession(t, addr); err == nil {
				mu.Lock()
				held = append(held, c)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	t.Cleanup(func() {
		for _, c := range held {
			c.Close()
		}
	})
	t.Logf("%d of %d connections without a session held from one address", len(held), tries)
	if len(held) >= tries {
		t.Errorf("all %d connections from one address were held", tries)
	}
}

func TestAConnectionBeyondTheCapIsToldWhy(t *testing.T) {
	lim := DefaultLimits()
	lim.ConnPer10s, lim.MaxConnsPerAddr = 10000, 2
	_, addr := serve(t, Config{Limits: lim})
	for range 2 {
		c, err := dialNoSession(t, addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	if c, err := dialNoSession(t, addr); err == nil {
		c.Close()
		t.Fatal("a third connection from the address was let in with a cap of 2")
	}
	raw, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	raw.SetReadDeadline(time.Now().Add(waitLong))
	said, _ := io.ReadAll(raw)
	if !strings.Contains(string(said), "too many connections from your address") {
		t.Errorf("the refused connection was told %q", said)
	}
}

func TestAConnectionThatStartsNoSessionIsClosed(t *testing.T) {
	lim := DefaultLimits()
	lim.ConnPer10s, lim.IdleTimeout = 10000, 0 // no idle check: the deadline alone
	lim.HandshakeTimeout, lim.SessionOpenTimeout = time.Second, 500*time.Millisecond
	_, addr := serve(t, Config{Limits: lim})
	closed := func(c *gossh.Client) bool {
		ended := make(chan error, 1)
		go func() { ended <- c.Wait() }()
		select {
		case <-ended:
			return true
		case <-time.After(waitLong):
			return false
		}
	}

	idle, err := dialNoSession(t, addr)
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	if !closed(idle) {
		t.Errorf("a connection that opened no session was still open after %v", waitLong)
	}

	// A session channel with no shell is no session either.
	c := dialRaw(t, addr)
	if !closed(c.conn) {
		t.Errorf("a connection whose session never started was still open after %v", waitLong)
	}

	// Nor is a refused subsystem (sftp): it once stopped the deadline.
	sub := dialRaw(t, addr)
	if err := sub.sess.RequestSubsystem("sftp"); err == nil {
		t.Error("the sftp subsystem was accepted")
	}
	if !closed(sub.conn) {
		t.Errorf("a connection whose only request was a refused subsystem was still open after %v", waitLong)
	}

	// A player is never cut off, however long they play.
	p := dialRaw(t, addr)
	if err := p.sess.RequestPty("xterm-256color", 24, 80, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	p.shell(t)
	p.waitOutput(t, "Choose")
	// A connection dialled after the player's, opening no session: once it
	// is closed, the player's own deadline, which began earlier, has passed
	// too.
	later, err := dialNoSession(t, addr)
	if err != nil {
		t.Fatal(err)
	}
	defer later.Close()
	if !closed(later) {
		t.Fatalf("a connection that opened no session was still open after %v", waitLong)
	}
	if _, _, err := p.conn.SendRequest("keepalive@openssh.com", true, nil); err != nil {
		t.Errorf("a playing session's connection was closed: %v", err)
	}
}

func TestASecondSessionOnOneConnectionIsRefusedWithAReason(t *testing.T) {
	_, addr := startServer(t)
	c := dialRaw(t, addr)
	if err := c.sess.RequestPty("xterm-256color", 24, 80, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	c.shell(t)
	c.waitOutput(t, "Choose")

	// OpenSSH's ControlMaster runs a second ssh over the same connection.
	second, err := c.conn.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	var said lockedBuffer
	second.Stderr = &said
	second.RequestPty("xterm-256color", 24, 80, gossh.TerminalModes{})
	var exit *gossh.ExitError
	within(t, "the second session to be refused", func() { err = second.Run("") })
	if !errors.As(err, &exit) || exit.ExitStatus() != 1 {
		t.Errorf("a second session while one runs ended with %v, want exit status 1", err)
	}
	if !strings.Contains(said.String(), "already has a session running") {
		t.Errorf("the second session was told %q", said.String())
	}

	// No more than a few channels at all.
	for range guard.MaxSessionChannels {
		if s, err := c.conn.NewSession(); err == nil {
			defer s.Close()
		}
	}
	if _, err := c.conn.NewSession(); err == nil || !strings.Contains(err.Error(), "sessions on one connection") {
		t.Errorf("session channel %d on one connection: %v", guard.MaxSessionChannels+2, err)
	}

	// The first one plays on and ends cleanly.
	c.in.Write([]byte("\x03"))
	within(t, "the first session to end", func() { err = c.sess.Wait() })
	if err != nil {
		t.Errorf("the first session did not end cleanly: %v", err)
	}
}

// emfileListener fails its first accepts as a process out of file
// descriptors does (EMFILE), then accepts as usual.
type emfileListener struct {
	net.Listener
	fails atomic.Int32
}

func (l *emfileListener) Accept() (net.Conn, error) {
	if l.fails.Add(-1) >= 0 {
		return nil, &net.OpError{Op: "accept", Net: "tcp", Err: os.NewSyscallError("accept4", syscall.EMFILE)}
	}
	return l.Listener.Accept()
}

// charm.land/ssh's Serve backs off on an accept error that is Temporary,
// as EMFILE is (syscall.Errno.Temporary), and goes on: a process that ran
// out of files for a moment still lets players in once files are free.
func TestTheSSHListenerGoesOnAcceptingAfterTooManyOpenFiles(t *testing.T) {
	lim := DefaultLimits()
	lim.ConnPer10s = 10000
	srv, err := newServer(t, Config{Listen: "127.0.0.1:0", DataDir: t.TempDir(), Logger: log.New(io.Discard), Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	ln := &emfileListener{Listener: srv.front.ln}
	ln.fails.Store(5)
	srv.front.ln = ln
	serveListening(t, srv)
	c := dial(t, srv.Addr().String(), newKey(t), 100, 30)
	title(t, c)
	if n := ln.fails.Load(); n >= 0 {
		t.Fatalf("the listener failed only %d of 5 accepts", 5-n)
	}
}
