package faults

import (
	"bufio"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/grotto-game/grotto/internal/sshtest"
)

// TestAPlayerWhoConnectsWhileGrottoRestartsGetsInOnTheSameSocket: grotto
// serves the socket handed to it as systemd does (socket activation).
// After a kill -9 the socket stays open in its keeper (systemd; here the
// test), a player who connects meanwhile waits in its queue instead of
// being refused, and the next grotto on the same socket lets them in.
func TestAPlayerWhoConnectsWhileGrottoRestartsGetsInOnTheSameSocket(t *testing.T) {
	if testing.Short() {
		t.Skip("fault suite")
	}
	addr, dir := heldAddr(t), t.TempDir()
	p := start(t, addr, dir)
	if !strings.Contains(p.stderr.String(), "serving on the sockets systemd passed") {
		t.Fatalf("grotto did not say it serves the socket it was handed:\n%s", p.stderr)
	}
	p.kill9(t)
	// Connected while no grotto runs: the socket's queue takes it.
	waiting, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatalf("a player who connects while grotto is down: %v (want the connection to wait)", err)
	}
	defer waiting.Close()
	p = start(t, addr, dir)
	waiting.SetReadDeadline(time.Now().Add(30 * time.Second))
	banner, err := bufio.NewReader(waiting).ReadString('\n')
	if err != nil || !strings.HasPrefix(banner, "SSH-2.0-") {
		t.Fatalf("the waiting connection read %q (%v) from the restarted grotto, want its SSH banner\n%s", banner, err, p.stderr)
	}
	c := sshtest.New(t, addr, sshtest.Options{})
	if _, err := c.WaitForText(30*time.Second, "Choose the name"); err != nil {
		t.Fatal(err)
	}
}
