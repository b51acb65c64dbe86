package postgres_test

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/grotto-game/grotto/internal/pgtest"
	"github.com/grotto-game/grotto/store"
	"github.com/grotto-game/grotto/store/postgres"
)

// openNodes opens n stores on one new database: n nodes of a cluster.
func openNodes(t *testing.T, n int) []*postgres.Store {
	t.Helper()
	url := pgtest.NewDatabase(t)
	nodes := make([]*postgres.Store, n)
	for i := range nodes {
		st, err := postgres.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		nodes[i] = st
	}
	return nodes
}

// names returns node/name of each game, in order.
func gameNames(games []store.NodeGame) []string {
	var out []string
	for _, g := range games {
		out = append(out, g.Node+"/"+g.Name)
	}
	return out
}

func listGames(t *testing.T, st *postgres.Store) []store.NodeGame {
	t.Helper()
	games, err := st.NodeGames(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return games
}

func listNodes(t *testing.T, st *postgres.Store) []string {
	t.Helper()
	nodes, err := st.Nodes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return nodes
}

// Two nodes announce their games; either node lists both nodes' games, by
// name case-insensitively, with every column as announced.
func TestTwoNodesAnnouncingAreListedTogether(t *testing.T) {
	nodes := openNodes(t, 2)
	ctx := context.Background()
	input := time.Date(2026, 12, 1, 10, 30, 0, 123456000, time.UTC)
	a := []store.NodeGame{
		{Fingerprint: "SHA256:zed", Name: "zed", Watchers: 2, LastInput: input, Activity: "watching", Watched: "bob"},
		{Fingerprint: "SHA256:amy", Name: "Amy", Depth: 1, Turn: 5, LastInput: input}, // as a build that lists no activity
	}
	b := []store.NodeGame{{Fingerprint: "SHA256:bob", Name: "bob", Depth: 7, Turn: 1 << 40, Watchers: 1, LastInput: input, Daily: "2026-12-01", Activity: "over"}}
	if err := nodes[0].Announce(ctx, "a", "10.0.0.1:7000", a, time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := nodes[1].Announce(ctx, "b", "10.0.0.2:7000", b, time.Hour); err != nil {
		t.Fatal(err)
	}
	for i, st := range nodes {
		games := listGames(t, st)
		if got, want := gameNames(games), []string{"a/Amy", "b/bob", "a/zed"}; !equal(got, want) {
			t.Fatalf("node %d lists %q, want %q", i, got, want)
		}
		g := games[1]
		if g.Fingerprint != "SHA256:bob" || g.Depth != 7 || g.Turn != 1<<40 || g.Watchers != 1 || !g.LastInput.Equal(input) || g.Daily != "2026-12-01" || g.Activity != "over" {
			t.Errorf("node %d lists bob's game as %+v, want it as announced", i, g)
		}
		if games[0].Daily != "" || games[0].Activity != "" || games[0].Watched != "" {
			t.Errorf("node %d lists Amy's game as %+v, want a normal game with no activity said", i, games[0])
		}
		if z := games[2]; z.Activity != "watching" || z.Watched != "bob" {
			t.Errorf("node %d lists zed as %+v, want watching bob", i, z)
		}
	}
	for node, want := range map[string]string{"a": "10.0.0.1:7000", "b": "10.0.0.2:7000"} {
		if addr, err := nodes[0].NodeAddr(ctx, node); err != nil || addr != want {
			t.Errorf("address of %s: %q, %v; want %q", node, addr, err, want)
		}
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A node that stops announcing vanishes, with its games, when its
// announcement expires; a node with no address is listed but has none.
func TestAnExpiredAnnouncementVanishes(t *testing.T) {
	st := openNodes(t, 1)[0]
	ctx := context.Background()
	const ttl = 50 * time.Millisecond
	if err := st.Announce(ctx, "dead", "10.0.0.9:7000", []store.NodeGame{{Fingerprint: "SHA256:x", Name: "x"}}, ttl); err != nil {
		t.Fatal(err)
	}
	// dead's announcement expires ttl after the database's now() of its
	// statement, which is before this one's.
	expired := postgres.DBNow(t, st).Add(ttl)
	if err := st.Announce(ctx, "alive", "", []store.NodeGame{{Fingerprint: "SHA256:y", Name: "y"}}, time.Hour); err != nil {
		t.Fatal(err)
	}
	postgres.WaitForDBClock(t, st, expired)
	if got := gameNames(listGames(t, st)); !equal(got, []string{"alive/y"}) {
		t.Errorf("after dead's announcement expired: %q, want only alive/y", got)
	}
	if _, err := st.NodeAddr(ctx, "dead"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("address of an expired node: %v, want ErrNotFound", err)
	}
	if _, err := st.NodeAddr(ctx, "alive"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("address of a node that announced none: %v, want ErrNotFound", err)
	}
	if got := listNodes(t, st); !equal(got, []string{"alive"}) {
		t.Errorf("live nodes after dead's announcement expired: %q, want only alive", got)
	}
	// The dead node comes back, with no games: it is listed again.
	if err := st.Announce(ctx, "dead", "10.0.0.9:7000", nil, time.Hour); err != nil {
		t.Fatal(err)
	}
	if got := listNodes(t, st); !equal(got, []string{"alive", "dead"}) {
		t.Errorf("live nodes once dead came back without games: %q, want alive and dead", got)
	}
	if addr, err := st.NodeAddr(ctx, "dead"); err != nil || addr != "10.0.0.9:7000" {
		t.Errorf("address of a node back: %q, %v", addr, err)
	}
}

// A node's announcement replaces its previous list (and address), and
// leaves the other nodes' alone; a key listed twice is kept once.
func TestReannouncingReplacesTheNodesList(t *testing.T) {
	st := openNodes(t, 1)[0]
	ctx := context.Background()
	announce := func(node, addr string, names ...string) {
		t.Helper()
		var games []store.NodeGame
		for _, n := range names {
			games = append(games, store.NodeGame{Fingerprint: "SHA256:" + n, Name: n})
		}
		if err := st.Announce(ctx, node, addr, games, time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	announce("a", "h:1", "p", "q")
	announce("b", "h:2", "r")
	announce("a", "h:3", "q", "s", "s")
	if got := gameNames(listGames(t, st)); !equal(got, []string{"a/q", "b/r", "a/s"}) {
		t.Errorf("after a re-announced: %q, want a/q b/r a/s", got)
	}
	if addr, _ := st.NodeAddr(ctx, "a"); addr != "h:3" {
		t.Errorf("a's address %q, want the new h:3", addr)
	}
	announce("a", "h:3")
	if got := gameNames(listGames(t, st)); !equal(got, []string{"b/r"}) {
		t.Errorf("after a announced no games: %q, want b/r", got)
	}
}

// Withdraw removes the node and its games at once; withdrawing again, or a
// node never announced, is no error.
func TestWithdrawRemovesTheNode(t *testing.T) {
	st := openNodes(t, 1)[0]
	ctx := context.Background()
	if err := st.Announce(ctx, "a", "h:1", []store.NodeGame{{Fingerprint: "SHA256:p", Name: "p"}}, time.Hour); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := st.Withdraw(ctx, "a"); err != nil {
			t.Fatal(err)
		}
	}
	if got := listGames(t, st); len(got) != 0 {
		t.Errorf("after withdraw: %+v, want none", got)
	}
	if _, err := st.NodeAddr(ctx, "a"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("address after withdraw: %v, want ErrNotFound", err)
	}
	if got := listNodes(t, st); len(got) != 0 {
		t.Errorf("live nodes after withdraw: %q, want none", got)
	}
	if err := st.Withdraw(ctx, "never"); err != nil {
		t.Errorf("withdraw of a node never announced: %v", err)
	}
}

// Four nodes starting together on a fresh database ask for the secret at
// once: all get the same 32 bytes, and so does every later call.
func TestNodesStartingTogetherGetOneClusterSecret(t *testing.T) {
	nodes := openNodes(t, 4)
	secrets := make([][]byte, len(nodes))
	errs := make([]error, len(nodes))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, st := range nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			secrets[i], errs[i] = st.ClusterSecret(context.Background())
		}()
	}
	close(start)
	wg.Wait()
	for i := range nodes {
		if errs[i] != nil {
			t.Fatalf("node %d: %v", i, errs[i])
		}
		if len(secrets[i]) != store.ClusterSecretSize || !bytes.Equal(secrets[i], secrets[0]) {
			t.Fatalf("node %d got secret %x, node 0 %x: want one 32-byte secret", i, secrets[i], secrets[0])
		}
	}
	again, err := nodes[0].ClusterSecret(context.Background())
	if err != nil || !bytes.Equal(again, secrets[0]) {
		t.Errorf("a later call: %x, %v; want the same secret", again, err)
	}
	if bytes.Equal(secrets[0], make([]byte, store.ClusterSecretSize)) {
		t.Error("the secret is all zeros")
	}
}
