// Tests of a dial that fails: the helper says so, and a test that goes on
// with the client it did not get fails instead of panicking.

package sshtest

import (
	"errors"
	"fmt"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// fakeTB records a Fatal and ends the calling goroutine as testing.T does.
type fakeTB struct {
	testing.TB // the real one, for everything fakeTB does not record
	fatal      string
	cleanups   []func()
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Fatal(args ...any) {
	f.fatal = fmt.Sprint(args...)
	runtime.Goexit()
}
func (f *fakeTB) Fatalf(format string, args ...any) { f.Fatal(fmt.Sprintf(format, args...)) }
func (f *fakeTB) Cleanup(fn func())                 { f.cleanups = append(f.cleanups, fn) }

// refusing listens on a loopback port that it keeps for the test and
// closes every connection at once, before any SSH banner.
func refusing(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	return ln.Addr().String()
}

func TestNewFailsTheTestWhenTheServerHangsUpBeforeTheHandshake(t *testing.T) {
	addr := refusing(t)
	f := &fakeTB{TB: t}
	returned := make(chan *Client, 1)
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		returned <- New(f, addr, Options{DialTimeout: 5 * time.Second})
	}()
	select {
	case <-ended:
	case <-time.After(30 * time.Second):
		t.Fatal("New still dialling after 30 s")
	}
	if len(returned) != 0 {
		t.Errorf("New returned a client (%v) for a server that hung up", <-returned)
	}
	if !strings.Contains(f.fatal, "handshake with "+addr) {
		t.Errorf("New's failure reads %q; want it to name the handshake with %s", f.fatal, addr)
	}
	if len(f.cleanups) != 0 {
		t.Errorf("New registered %d cleanups for a client it did not make", len(f.cleanups))
	}
}

// TestAClientThatWasNeverMadeEndsWithoutAPanic: a test that dialled in a
// goroutine, whose dial failed, and that then waits on the client's Done,
// reads its screen and closes it (as the fault suite's SIGTERM test did)
// gets a closed channel, an empty screen and ErrNoClient, not a nil
// pointer panic that aborts every test after it.
func TestAClientThatWasNeverMadeEndsWithoutAPanic(t *testing.T) {
	c, err := Dial(refusing(t), mustKey(t), Options{DialTimeout: 5 * time.Second})
	if err == nil {
		t.Fatal("Dial succeeded against a server that hangs up")
	}
	select {
	case <-c.Done():
	case <-time.After(time.Second):
		t.Error("a client never made is not done")
	}
	if s := c.Screen(); s != "" {
		t.Errorf("its screen is %q", s)
	}
	if out := c.Output(); len(out) != 0 {
		t.Errorf("its output is %q", out)
	}
	if err := c.Send("j"); !errors.Is(err, ErrNoClient) {
		t.Errorf("Send: %v, want ErrNoClient", err)
	}
	if err := c.Resize(100, 30); !errors.Is(err, ErrNoClient) {
		t.Errorf("Resize: %v, want ErrNoClient", err)
	}
	if err := c.WindowChange(100, 30); !errors.Is(err, ErrNoClient) {
		t.Errorf("WindowChange: %v, want ErrNoClient", err)
	}
	if _, err := c.WaitForText(time.Second, "anything"); !errors.Is(err, ErrNoClient) {
		t.Errorf("WaitForText: %v, want ErrNoClient", err)
	}
	if err := c.Wait(); !errors.Is(err, ErrNoClient) {
		t.Errorf("Wait: %v, want ErrNoClient", err)
	}
	if n := c.ExitStatus(); n != -1 {
		t.Errorf("ExitStatus %d, want -1", n)
	}
	if c.LocalAddr() != nil || c.BytesReceived() != 0 {
		t.Errorf("LocalAddr %v, BytesReceived %d", c.LocalAddr(), c.BytesReceived())
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

func mustKey(t *testing.T) gossh.Signer {
	t.Helper()
	k, err := NewKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}
