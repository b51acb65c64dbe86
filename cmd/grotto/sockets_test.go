package main

import (
	"net"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/grotto-game/grotto/internal/sshtest"
	"github.com/grotto-game/grotto/server"
)

func listen(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln
}

// TestTheSSHSocketSystemdPassesServesPlayers: with a socket handed to it
// (systemd socket activation), grotto serves SSH there and binds nothing
// of its own for --listen, whatever address --listen names.
func TestTheSSHSocketSystemdPassesServesPlayers(t *testing.T) {
	ln := listen(t)
	code := make(chan int, 1)
	go func() {
		code <- runOn([]string{"--listen", "127.0.0.1:1", "--data", t.TempDir()}, func() (sockets, error) {
			return sockets{server.BindSSH: ln}, nil
		})
	}()
	c := sshtest.New(t, ln.Addr().String(), sshtest.Options{})
	if _, err := c.WaitForText(20*time.Second, "Choose the name"); err != nil {
		t.Fatal(err)
	}
	syscall.Kill(os.Getpid(), syscall.SIGTERM)
	select {
	case got := <-code:
		if got != 0 {
			t.Errorf("exit code %d, want 0", got)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("still running 20 s after SIGTERM")
	}
}

func TestSystemdSocketsAreServedByNameAndALoneOneIsSSH(t *testing.T) {
	a, b := listen(t), listen(t)
	got, err := namedSockets(map[string][]net.Listener{"grotto.socket": {a}})
	if err != nil || got[server.BindSSH] != a || len(got) != 1 {
		t.Errorf("one socket named after its unit: %v (%v), want it to serve SSH", got, err)
	}
	got, err = namedSockets(map[string][]net.Listener{"ssh": {a}, "http": {b}})
	if err != nil || got[server.BindSSH] != a || got[server.BindHTTP] != b {
		t.Errorf("ssh and http: %v (%v)", got, err)
	}
	if got, err = namedSockets(nil); err != nil || len(got) != 0 {
		t.Errorf("no sockets: %v (%v)", got, err)
	}
	for _, c := range []struct {
		got  map[string][]net.Listener
		want string
	}{
		{map[string][]net.Listener{"ssh": {a}, "web": {b}}, `systemd passed a socket named "web"; name each grotto socket (FileDescriptorName=) one of ssh, http, metrics, node, pprof`},
		{map[string][]net.Listener{"ssh": {a, b}}, `systemd passed 2 sockets named "ssh"; grotto serves one of each name`},
	} {
		if _, err := namedSockets(c.got); err == nil || err.Error() != c.want {
			t.Errorf("%v: %v, want %q", c.got, err, c.want)
		}
	}
}

// TestASocketForAServiceThatIsOffIsABadConfiguration: an http socket with
// --http off would be held with nobody answering; a pprof socket off
// loopback would show the heap to players. Both stop the start, exit 2,
// with a line saying what to set.
func TestASocketForAServiceThatIsOffIsABadConfiguration(t *testing.T) {
	web := listen(t)
	if err := (sockets{server.BindHTTP: web}).check(server.Config{Listen: ":23234"}); err == nil ||
		!strings.HasPrefix(err.Error(), "systemd passed the http socket ("+web.Addr().String()+") but --http is off; set --http too") {
		t.Errorf("an http socket without --http: %v", err)
	}
	if err := (sockets{server.BindHTTP: web}).check(server.Config{Listen: ":23234", HTTP: web.Addr().String()}); err != nil {
		t.Errorf("an http socket with --http: %v", err)
	}
	if code := runOn([]string{"--listen", "127.0.0.1:0", "--data", t.TempDir()}, func() (sockets, error) {
		return sockets{server.BindHTTP: web}, nil
	}); code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	wide, err := net.Listen("tcp", "0.0.0.0:0")
	if err != nil {
		t.Fatal(err)
	}
	defer wide.Close()
	if err := (sockets{bindPprof: wide}).check(server.Config{Listen: ":23234", Pprof: "127.0.0.1:6060"}); err == nil || !strings.Contains(err.Error(), "must be on loopback") {
		t.Errorf("a pprof socket on every address: %v", err)
	}
}
