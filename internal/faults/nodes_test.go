package faults

// Many nodes on one PostgreSQL behind HAProxy, broken on
// purpose with real processes (cluster_test.go): a node killed with
// kill -9, a node paused past its lease, two nodes racing for one name,
// and PostgreSQL restarted under play. Players come and go over real SSH
// through the balancer, and what they saw is compared with what the store
// holds.

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/grotto-game/grotto/internal/await"
	"github.com/grotto-game/grotto/internal/pgtest"
)

func TestKill9OfANodeWithThreePlayersEachResumesOnAnotherNodeAtTheTurnTheirScreenShowed(t *testing.T) {
	c, st := nodesOnPostgres(t, 3)
	players := newPlayers(t, 3)
	type seen struct {
		depth string
		seed  uint64
	}
	before := map[*player]seen{}
	for i, pl := range players {
		pl.enter(t, c.onNode(t, pl, 0))
		screen := pl.rest(t, 2+i)
		g := storedGame(t, st, pl).game
		if g.Turn() != pl.shown {
			t.Fatalf("%s: the store holds turn %d, the screen shows %d (before any fault)", pl.name, g.Turn(), pl.shown)
		}
		before[pl] = seen{depth: depthOf(screen), seed: g.Seed()}
	}

	c.nodes[0].kill9(t)
	killed := time.Now()
	for _, pl := range players {
		pl.c.Close()
	}
	// All three come back at once, as players of a node that died do.
	var wg sync.WaitGroup
	first, errs, took := make([]string, 3), make([]error, 3), make([]time.Duration, 3)
	for i, pl := range players {
		wg.Add(1)
		go func() {
			defer wg.Done()
			first[i], errs[i] = pl.arriveBy(c.lb.Addr, time.Now().Add(comeBack))
			took[i] = time.Since(killed)
		}()
	}
	wg.Wait()
	for i, pl := range players {
		if errs[i] != nil {
			t.Fatalf("%s could not come back: %v", pl.name, errs[i])
		}
		screen := pl.enter(t, first[i])
		on := c.nodeOf(t, pl.c)
		t.Logf("%s let in again by node %d %v after the kill (%s)", pl.name, on+1, took[i].Round(10*time.Millisecond), strings.Join(pl.via, ", "))
		if on <= 0 {
			t.Errorf("%s: resumed on node %d, want another live node", pl.name, on+1)
		}
		if got := turnOf(screen); got != pl.shown {
			t.Errorf("%s: the screen showed turn %d before the kill, resumed at turn %d:\n%s", pl.name, pl.shown, got, screen)
		}
		if got := around(screen); got != pl.around {
			t.Errorf("%s: resumed elsewhere on the map; before the kill:\n%s\nafter:\n%s", pl.name, pl.around, got)
		}
		if got := depthOf(screen); got != before[pl].depth {
			t.Errorf("%s: depth %s before the kill, %s after", pl.name, before[pl].depth, got)
		}
		// The new node writes under its own lease: the next turn is in
		// the store, on the same map.
		pl.rest(t, 1)
		g := storedGame(t, st, pl).game
		if g.Turn() != pl.shown || g.Seed() != before[pl].seed {
			t.Errorf("%s: the store holds turn %d of seed %d; the screen shows turn %d, the game had seed %d",
				pl.name, g.Turn(), g.Seed(), pl.shown, before[pl].seed)
		}
	}
}

// lostLease is what a node logs when it finds out another node claimed a
// key it held: the renew loop, or the end of the session whose write was
// refused (server/leases.go, server/server.go).
var lostLease = regexp.MustCompile(`this node lost (its|the key's) lease`)

func TestANodePausedPastItsLeaseWritesNothingWhenItWakes(t *testing.T) {
	c, st := nodesOnPostgres(t, 2)
	pl := newPlayers(t, 1)[0]
	pl.enter(t, c.onNode(t, pl, 0))
	pl.rest(t, 3)
	paused, old := c.nodes[0], pl.c

	paused.pause(t)
	// A key the paused node reads when it wakes: a turn it must not write.
	// A move, where the new node will rest: the two nodes' turns differ in
	// the store.
	move := openStep(pl.around)
	if move == "" {
		t.Fatalf("no floor next to the player to step on:\n%s", pl.around)
	}
	old.Send(move)
	screen, took := pl.resume(t, c.lb.Addr)
	t.Logf("resumed on node %d %v after the pause (%s)", c.nodeOf(t, pl.c)+1, took.Round(10*time.Millisecond), strings.Join(pl.via, ", "))
	if got := turnOf(screen); got != pl.shown || around(screen) != pl.around {
		t.Fatalf("the screen showed turn %d before the pause; resumed at turn %d:\n%s", pl.shown, got, screen)
	}
	pl.rest(t, 2)
	held := storedGame(t, st, pl)
	if held.game.Turn() != pl.shown {
		t.Fatalf("the store holds turn %d, the new node's screen shows %d", held.game.Turn(), pl.shown)
	}

	paused.wake()
	// It finds out (its renew loop, or its write refused) within a few
	// renewals; whether or not it says so, it must not have written.
	if !await.Within(30*time.Second, func() bool { return lostLease.MatchString(paused.stderr.String()) }) {
		t.Errorf("the paused node never logged that it lost the lease:\n%s", paused.stderr)
	}
	select {
	case <-old.Done():
		if out := string(old.Output()); !strings.Contains(out, "taken over elsewhere") {
			t.Errorf("the session on the paused node ended without saying the game went on elsewhere: %q", out[max(0, len(out)-300):])
		}
	case <-time.After(10 * time.Second):
		t.Errorf("the session on the paused node is still open after it woke:\n%s", old.Screen())
	}
	old.Close()
	if now := storedGame(t, st, pl); !now.sameAs(held) {
		t.Fatalf("the paused node wrote after it woke: the store went from turn %d (%d journal entries) to turn %d (%d)",
			held.game.Turn(), len(held.journal), now.game.Turn(), len(now.journal))
	}
	// The game goes on where the new node's screen is, and is stored so.
	screen = pl.rest(t, 2)
	if g := storedGame(t, st, pl).game; g.Turn() != pl.shown {
		t.Errorf("the store holds turn %d, the screen shows %d:\n%s", g.Turn(), pl.shown, screen)
	}
}

func TestTwoNewPlayersOnTwoNodesClaimingOneNameAtOnceOneGetsItTheOtherChoosesAnother(t *testing.T) {
	c, st := nodesOnPostgres(t, 2)
	for race := range 3 {
		name := fmt.Sprintf("racer%d", race)
		pair := newPlayers(t, 2)
		for i, pl := range pair {
			pl.name = name // the SSH user: the name screen suggests it to both
			if screen := c.onNode(t, pl, i); !strings.Contains(screen, "Choose the name") || !strings.Contains(screen, name+"_") {
				t.Fatalf("player %d on %s is not offered %q:\n%s", i+1, c.nodes[i].name, name, screen)
			}
		}
		var wg sync.WaitGroup
		gun := make(chan struct{})
		for _, pl := range pair {
			wg.Add(1)
			go func() { defer wg.Done(); <-gun; pl.c.Send("\r") }()
		}
		close(gun)
		wg.Wait()
		welcome, taken := "Welcome, "+name+"!", name+" is taken; choose another name"
		var winners, losers []*player
		for i, pl := range pair {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			screen, err := pl.c.WaitFor(ctx, func(s string) bool { return strings.Contains(s, welcome) || strings.Contains(s, taken) })
			cancel()
			switch {
			case err != nil:
				t.Fatalf("race %d, player %d: %v", race, i+1, err)
			case strings.Contains(screen, welcome):
				winners = append(winners, pl)
			default:
				losers = append(losers, pl)
			}
		}
		if len(winners) != 1 || len(losers) != 1 {
			t.Fatalf("race %d for %q: %d players got it, %d were told it is taken; want one each", race, name, len(winners), len(losers))
		}
		// The one told it is taken chooses another, and plays.
		other := name + "b"
		losers[0].c.Send("\x15" + other + "\r") // Ctrl+U clears the suggestion
		if _, err := losers[0].c.WaitForText(30*time.Second, "Welcome, "+other+"!"); err != nil {
			t.Fatalf("race %d: the player told %q is taken could not choose %q: %v", race, name, other, err)
		}
		for pl, want := range map[*player]string{winners[0]: name, losers[0]: other} {
			if fp, err := st.NameHolder(want); err != nil || fp != keyFP(pl) {
				t.Errorf("race %d: the store gives %q to %q (%v), want the key that was welcomed as it", race, want, fp, err)
			}
			pl.enter(t, pl.c.Screen())
			pl.c.Close()
		}
	}
}

func TestPostgreSQLRestartedUnderPlayersOnTwoNodesTheyWaitAndResumeLosingNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("fault suite")
	}
	t.Parallel()
	pg := pgtest.Own(t) // this test's own: it kills it
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	url, err := pg.CreateDatabase(ctx)
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	c := startCluster(t, url, 2)
	players := newPlayers(t, 2)
	for i, pl := range players {
		pl.enter(t, c.onNode(t, pl, i))
		pl.rest(t, 3+i)
	}

	if err := pg.Kill(); err != nil {
		t.Fatal(err)
	}
	for _, pl := range players {
		pl.c.Send(".")
		screen, err := pl.c.WaitForText(comeBack, "Waiting for storage")
		if err != nil {
			t.Fatalf("%s is not told the game waits for storage: %v", pl.name, err)
		}
		if strings.Contains(screen, fmt.Sprintf("Turn: %d", pl.shown+1)) {
			t.Errorf("%s: a turn not yet saved is shown:\n%s", pl.name, screen)
		}
	}
	if err := pg.Restart(); err != nil {
		t.Fatal(err)
	}
	for _, pl := range players {
		// No key pressed: the turn that waited is saved, then drawn.
		want := fmt.Sprintf("Turn: %d", pl.shown+1)
		ctx, cancel := context.WithTimeout(context.Background(), comeBack)
		screen, err := pl.c.WaitFor(ctx, func(s string) bool {
			return strings.Contains(s, want) && !strings.Contains(s, "Waiting for storage")
		})
		cancel()
		if err != nil {
			t.Fatalf("%s: play did not resume by itself: %v", pl.name, err)
		}
		pl.shown = turnOf(screen)
		pl.rest(t, 2)
	}
	st := c.db.open(t, "")
	for i, pl := range players {
		// One journal entry too many would replay a turn twice; one too
		// few would lose one.
		if g := storedGame(t, st, pl).game; g.Turn() != pl.shown {
			t.Errorf("%s: the store holds turn %d, the screen shows %d", pl.name, g.Turn(), pl.shown)
		}
		if on := c.nodeOf(t, pl.c); on != i {
			t.Errorf("%s moved from node %d to node %d", pl.name, i+1, on+1)
		}
		if lostLease.MatchString(c.nodes[i].stderr.String()) {
			t.Errorf("%s lost a lease while the database was away:\n%s", c.nodes[i].name, c.nodes[i].stderr)
		}
	}
}
