package server

import (
	"strings"
	"testing"
)

func TestASessionWithoutATerminalIsToldHowToAskForOneOnThePort(t *testing.T) {
	addr := unit(t, requirePTY(func() string { return Config{Listen: "127.0.0.1:2222"}.SSHCommand(true) }))
	out, errs, status := run(t, login(t, addr, "x", newKey(t)), "")
	if status != 1 || !strings.Contains(errs, "ssh -t -p 2222 <host>") || strings.Contains(out, reached) {
		t.Errorf("no PTY: status %d, %q, %q; want refused, naming port 2222", status, out, errs)
	}

	sess := login(t, addr, "x", newKey(t))
	if err := sess.RequestPty("xterm", 24, 80, nil); err != nil {
		t.Fatal(err)
	}
	if out, _, status := run(t, sess, ""); status != 0 || !strings.Contains(out, reached) {
		t.Errorf("with a PTY: status %d, %q; want the game", status, out)
	}
}

func TestPortOfAListenAddress(t *testing.T) {
	for addr, want := range map[string]string{
		":2222": "2222", "[::1]:22": "22", ":0": "23234", "127.0.0.1:0": "23234", "no port": "23234",
	} {
		if got := PortOf(addr); got != want {
			t.Errorf("PortOf(%q) = %q, want %q", addr, got, want)
		}
	}
}
