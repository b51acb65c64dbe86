package server

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/grotto-game/grotto/internal/await"
	"github.com/grotto-game/grotto/internal/pgtest"
)

// A table locked in the database (a host's ALTER TABLE, a stuck
// migration) does not stall the lease renewals that keep the node's games
// placed: a lock longer than the lease TTL must not let the game lapse to
// another node (found by a host locking the saves for 30 s: 15–30 s of
// frozen screens, and renewals waiting for a connection behind the
// sessions' stuck reads). The player's turn 100 writes a snapshot
// (session.SnapshotEvery), which the lock refuses after LockWait: every
// turn is journaled all the same, so the player plays on through the lock,
// and the snapshot is taken once it clears (found: the refused snapshot
// held the player on "Waiting for storage" for the whole lock, and a
// shutdown meanwhile claimed the game unsaved). Twenty players logging in
// meanwhile each read their save.
func TestALockedSavesTableKeepsThePlayerPlayingAndTheLeasesRenewing(t *testing.T) {
	url := pgtest.NewDatabase(t)
	var logs lockedBuffer
	srv, addr := serveNode(t, url, "node-a", MinLeaseTTL, &logs)
	player := dial(t, addr, newKey(t), 100, 30)
	newGame(t, player)
	rest(t, player, 99)

	ctx := context.Background()
	tx := lockTable(t, url, "saves")
	var locked time.Time
	if err := tx.QueryRow(ctx, `SELECT clock_timestamp()`).Scan(&locked); err != nil {
		t.Fatal(err)
	}
	for range 20 { // each names itself, then its title reads its save
		c := dial(t, addr, newKey(t), 100, 30)
		waitText(t, c, "Choose the name")
		c.Send("\x15" + fmt.Sprintf("late%d", names.Add(1)) + "\r")
	}
	// Within waitLong, shorter than a store call's timeout (15 s): the
	// snapshot gives up after LockWait, the turn is journaled.
	rest(t, player, 105)
	// The lease is renewed while the saves stay locked: its expiry
	// moves past the lock's start plus one TTL.
	if !await.Within(3*waitLong, func() bool {
		var expires time.Time // a lease renewed after the lock began
		err := tx.QueryRow(ctx, `SELECT max(expires) FROM leases`).Scan(&expires)
		return err == nil && expires.After(locked.Add(MinLeaseTTL))
	}) {
		t.Fatalf("the node's lease was not renewed while the saves were locked; the log:\n%s", logs.String())
	}
	tx.Rollback(ctx)
	rest(t, player, 120) // the snapshot is tried again every 10 turns
	if s := logs.String(); strings.Contains(s, "fenced") || strings.Contains(s, "lost") || strings.Contains(s, "NOT SAVED") {
		t.Errorf("the game lost its place, or was said unsaved, while the saves were locked:\n%s", s)
	}
	if out := string(player.Output()); strings.Contains(out, "Not saved") || strings.Contains(out, "NOT SAVED") {
		t.Errorf("the player was told a turn was not saved, though every turn was journaled")
	}
	var entries int
	if err := tx.Conn().QueryRow(ctx, `SELECT count(*) FROM journal`).Scan(&entries); err != nil {
		t.Fatal(err)
	}
	if entries >= 100 {
		t.Errorf("the journal holds %d entries once the lock cleared: the snapshot was not taken again", entries)
	}
	// What a host's dashboard shows of it: no renewal failed.
	if n := srv.place.leases.renewFailures.Load(); n != 0 {
		t.Errorf("grotto_lease_renewal_failures_total = %d while only the saves were locked, want 0", n)
	}
}

// A lock on node_games only stops the announcements that list a node's
// games to the other nodes: the node still plays and still says ready
// (found: one such lock took every node out of the balancer at once).
func TestALockedNodeListingKeepsTheNodeReady(t *testing.T) {
	url := pgtest.NewDatabase(t)
	var logs lockedBuffer
	srv, addr := serveNode(t, url, "node-a", MinLeaseTTL, &logs, func(c *Config) { c.Metrics = "127.0.0.1:0" })
	player := dial(t, addr, newKey(t), 100, 30)
	newGame(t, player)
	lockTable(t, url, "node_games")
	if !await.Within(3*waitLong, func() bool { return strings.Contains(logs.String(), "could not announce this node's games") }) {
		t.Fatalf("no announcement failed while node_games was locked:\n%s", logs.String())
	}
	if code, body := probe("http://" + srv.MetricsAddr().String() + "/readyz"); code != http.StatusOK {
		t.Errorf("/readyz with only the listings locked: %d %q, want 200", code, body)
	}
	rest(t, player, 2) // and the game goes on
}

// A login while the players table is locked waits for it, instead of
// being refused as soon as the store's lock wait ends (found: refused
// after 1 s with "cannot read its database right now").
func TestALoginWaitsForALockedPlayersTable(t *testing.T) {
	url := pgtest.NewDatabase(t)
	var logs lockedBuffer
	_, addr := serveNode(t, url, "node-a", MinLeaseTTL, &logs)
	ctx := context.Background()
	tx := lockTable(t, url, "players")
	c := dial(t, addr, newKey(t), 100, 30)
	if !await.Within(waitLong, func() bool { return strings.Contains(logs.String(), "the login waits for it") }) {
		t.Fatalf("the login did not wait for the locked table; the screen:\n%s\nthe log:\n%s", c.Screen(), logs.String())
	}
	tx.Rollback(ctx)
	title(t, c)
}

// lockTable locks table of the database at url in a transaction of its
// own, as a host's ALTER TABLE or a stuck migration would, and returns the
// transaction: Rollback releases the lock, and cleanup does it anyway.
func lockTable(t *testing.T, url, table string) pgx.Tx {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(ctx) })
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tx.Rollback(ctx) })
	if _, err := tx.Exec(ctx, "LOCK TABLE "+table+" IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	return tx
}

// A take-over while the saves table is locked carries on the game once
// the lock clears, instead of leaving the new session on a title without
// Continue (found: the title read the save once, during the lock, failed,
// and never tried again, so the game seemed gone though it was saved).
func TestATakeOverWhileTheSavesAreLockedCarriesOnOnceTheLockClears(t *testing.T) {
	url := pgtest.NewDatabase(t)
	var logs lockedBuffer
	_, addr := serveNode(t, url, "node-a", MinLeaseTTL, &logs)
	key := newKey(t)
	a := dial(t, addr, key, 100, 30)
	newGame(t, a)
	wantTurn := turn(rest(t, a, 2))

	tx := lockTable(t, url, "saves")
	b := dial(t, addr, key, 100, 30)
	waitText(t, b, "already playing")
	b.Send("t")
	ended(t, a) // the old session has let go of the game
	// While the lock holds, the new session says it waits for the
	// database rather than showing a title without the game.
	waitText(t, b, "Waiting for storage")
	tx.Rollback(context.Background())
	waitText(t, b, "Turn: "+wantTurn)
}

// A login while the saves table is locked shows the title saying the save
// cannot be read for now, and offers Continue once the lock clears,
// without the player leaving and coming back.
func TestATitleShownWhileTheSavesAreLockedOffersContinueOnceTheLockClears(t *testing.T) {
	url := pgtest.NewDatabase(t)
	var logs lockedBuffer
	srv, addr := serveNode(t, url, "node-a", MinLeaseTTL, &logs)
	key := newKey(t)
	a := dial(t, addr, key, 100, 30)
	newGame(t, a)
	wantTurn := turn(rest(t, a, 2))
	a.Close()
	noSessions(t, srv)

	tx := lockTable(t, url, "saves")
	b := dial(t, addr, key, 100, 30)
	waitText(t, b, "Trying again every second")
	tx.Rollback(context.Background())
	waitText(t, b, "Continue")
	b.Send("\r")
	waitText(t, b, "Turn: "+wantTurn)
}
