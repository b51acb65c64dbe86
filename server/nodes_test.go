package server

// Tests of one live game per key across nodes: two servers, each its own
// node, on one real PostgreSQL database (internal/pgtest).

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"charm.land/log/v2"
	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/internal/pgtest"
	"github.com/grotto-game/grotto/internal/sshtest"
	"github.com/grotto-game/grotto/store/postgres"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// serveNode runs a real grotto server named node on the PostgreSQL
// database url, with leases of ttl (0 for the default), and shuts it down
// at cleanup.
func serveNode(t *testing.T, url, node string, ttl time.Duration, logs *lockedBuffer) (*Server, string) {
	t.Helper()
	data, err := game.LoadData()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	db, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	lim := DefaultLimits()
	lim.ConnPer10s = 10000
	srv, err := New(Config{Listen: "127.0.0.1:0", DataDir: t.TempDir(), Logger: log.New(logs), Limits: lim,
		Node: node, LeaseTTL: ttl}, db, data)
	if err != nil {
		db.Close()
		t.Fatal(err)
	}
	if err := srv.Listen(); err != nil {
		srv.Close()
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve() }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		<-served
	})
	return srv, srv.Addr().String()
}

// ended waits for c's session to end and returns all it printed.
func ended(t *testing.T, c *sshtest.Client) string {
	t.Helper()
	select {
	case <-c.Done():
	case <-time.After(waitLong):
		t.Fatalf("the session is still open:\n%s", c.Screen())
	}
	return string(c.Output())
}

// noSessions waits until srv has no session left: every game saved and its
// lease released.
func noSessions(t *testing.T, srv *Server) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	if err := srv.live.Wait(ctx); err != nil {
		t.Fatalf("sessions still open: %d", srv.live.Len())
	}
}

func TestAKeyPlayingOnOneNodeCannotPlayOnAnotherUntilItLeaves(t *testing.T) {
	url := pgtest.NewDatabase(t)
	var logsA, logsB lockedBuffer
	srvA, addrA := serveNode(t, url, "node-a", 0, &logsA)
	_, addrB := serveNode(t, url, "node-b", 0, &logsB)
	key := newKey(t)

	a := dial(t, addrA, key, 100, 30)
	newGame(t, a)
	screen := rest(t, a, 3)
	wantTurn, wantAround := turn(screen), around(t, screen)

	b := dial(t, addrB, key, 100, 30)
	out := ended(t, b)
	if !strings.Contains(out, "Your key is playing on node node-a; leave that game first, or wait until") {
		t.Fatalf("the player on node B reads %q; want the line naming node-a", out)
	}
	if !strings.Contains(logsB.String(), "not supported yet") {
		t.Errorf("node B's log does not say cross-node take-over is not supported yet:\n%s", logsB.String())
	}
	// A plays on, untouched.
	rest(t, a, atoi(wantTurn)+1)
	screen = a.Screen()
	wantTurn, wantAround = turn(screen), around(t, screen)

	a.Close() // an abrupt disconnect: A saves and releases as the session unwinds
	noSessions(t, srvA)

	b = dial(t, addrB, key, 100, 30)
	screen = waitText(t, b, "Continue")
	if !strings.Contains(screen, "turn "+wantTurn) {
		t.Errorf("node B's title does not describe the save at turn %s:\n%s", wantTurn, screen)
	}
	b.Send("\r")
	screen = waitText(t, b, "Turn: "+wantTurn)
	if got := around(t, screen); got != wantAround {
		t.Errorf("resumed elsewhere on node B; before:\n%s\nafter:\n%s", wantAround, got)
	}
	rest(t, b, atoi(wantTurn)+1)

	// And now node A refuses the key, naming B.
	a = dial(t, addrA, key, 100, 30)
	if out := ended(t, a); !strings.Contains(out, "playing on node node-b") {
		t.Errorf("the player back on node A reads %q; want the line naming node-b", out)
	}
}

// claimOn dials addr with key until the node grants the key's lease (the
// title screen shows Continue), as a player would reconnect after the time
// the refusal named.
func claimOn(t *testing.T, addr string, key gossh.Signer) *sshtest.Client {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		c := dial(t, addr, key, 100, 30)
		ctx, cancel := context.WithTimeout(context.Background(), waitLong)
		screen, err := c.WaitFor(ctx, func(s string) bool { return strings.Contains(s, "Continue") })
		cancel()
		if err == nil {
			return c
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatalf("the node never granted the key; last refusal %q\n%s", c.Output(), screen)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func TestANodeThatLostItsLeaseIsFencedAndItsPlayersAreTold(t *testing.T) {
	url := pgtest.NewDatabase(t)
	var logsA, logsB lockedBuffer
	srvA, addrA := serveNode(t, url, "node-a", MinLeaseTTL, &logsA)
	_, addrB := serveNode(t, url, "node-b", MinLeaseTTL, &logsB)
	moving, idle := newKey(t), newKey(t)

	// Two players on A: one will press a key after the lease moved, the
	// other will not (the renew loop finds out).
	a1 := dial(t, addrA, moving, 100, 30)
	newGame(t, a1)
	screen := rest(t, a1, 2)
	wantTurn, wantAround := turn(screen), around(t, screen)
	a2 := dial(t, addrA, idle, 100, 30)
	newGame(t, a2)
	rest(t, a2, 1)

	// A stops renewing (as a paused node would); its leases lapse and B
	// claims the keys, each at the next epoch.
	srvA.pauseRenewals(true)
	b1 := claimOn(t, addrB, moving)
	b1.Send("c")
	screen = waitText(t, b1, "Turn: "+wantTurn)
	if got := around(t, screen); got != wantAround {
		t.Errorf("node B resumed elsewhere; before:\n%s\nafter:\n%s", wantAround, got)
	}
	b2 := claimOn(t, addrB, idle)

	// A's next write is refused: its player is told and leaves.
	a1.Send(".") // rest a turn: a write
	out := ended(t, a1)
	if !strings.Contains(out, "taken over elsewhere") {
		t.Errorf("the player on node A reads %q; want to hear the game was taken over elsewhere", out)
	}
	if !strings.Contains(logsA.String(), "fenced") {
		t.Errorf("node A's log does not say the write was fenced:\n%s", logsA.String())
	}
	// A's move never landed: B's game goes on from the turn it resumed.
	if got := turn(b1.Screen()); got != wantTurn {
		t.Errorf("node B's game is at turn %s, want %s", got, wantTurn)
	}
	rest(t, b1, atoi(wantTurn)+2)

	// A renews again and hears that it lost the idle key: that session
	// ends too, without a key pressed.
	srvA.pauseRenewals(false)
	if out := ended(t, a2); !strings.Contains(out, "taken over elsewhere") {
		t.Errorf("the idle player on node A reads %q; want to hear the game was taken over elsewhere", out)
	}
	b2.Send("c")
	waitText(t, b2, "Turn: 1")
	noSessions(t, srvA)
}

func TestATakeOverWithinANodeKeepsTheLeaseAndTheGameWritesOn(t *testing.T) {
	url := pgtest.NewDatabase(t)
	var logsA, logsB lockedBuffer
	srvA, addrA := serveNode(t, url, "node-a", 0, &logsA)
	_, addrB := serveNode(t, url, "node-b", 0, &logsB)
	key := newKey(t)
	a := dial(t, addrA, key, 100, 30)
	newGame(t, a)
	screen := rest(t, a, 2)
	wantTurn := turn(screen)

	a2 := dial(t, addrA, key, 100, 30)
	waitText(t, a2, "already playing")
	a2.Send("t")
	waitText(t, a2, "Turn: "+wantTurn)
	if out := ended(t, a); !strings.Contains(out, "took over") || strings.Contains(out, "elsewhere") {
		t.Errorf("the old session reads %q; want the take-over within the node", out)
	}
	screen = rest(t, a2, atoi(wantTurn)+2) // every turn a durable write under the lease
	wantTurn = turn(screen)
	if strings.Contains(logsA.String(), "fenced") {
		t.Errorf("a write was fenced after a take-over within the node:\n%s", logsA.String())
	}
	// Node B still sees the key playing on A; once it leaves, B resumes it.
	if out := ended(t, dial(t, addrB, key, 100, 30)); !strings.Contains(out, "playing on node node-a") {
		t.Errorf("node B lets the key in while it plays on A: %q", out)
	}
	a2.Close()
	noSessions(t, srvA)
	b := dial(t, addrB, key, 100, 30)
	waitText(t, b, "Continue")
	b.Send("\r")
	waitText(t, b, "Turn: "+wantTurn)
}

// rest presses "." (wait: always one turn) until the screen shows turn n,
// each key answered before the next is sent, so that no key is in flight
// when it returns: the screen it returns is the game on disk. walk's
// movement keys can be refused ("blocked"), and a refusal still on screen
// can answer the next key's wait early, leaving that key in flight.
func rest(t *testing.T, c *sshtest.Client, n int) string {
	t.Helper()
	screen := c.Screen()
	for i := 0; turn(screen) != "" && atoi(turn(screen)) < n && i < 200; i++ {
		want := "Turn: " + strconv.Itoa(atoi(turn(screen))+1)
		c.Send(".")
		s, err := c.WaitForText(10*time.Second, want)
		if err != nil {
			t.Fatal(err)
		}
		screen = s
	}
	if atoi(turn(screen)) < n {
		t.Fatalf("could not rest %d turns:\n%s", n, screen)
	}
	return screen
}
