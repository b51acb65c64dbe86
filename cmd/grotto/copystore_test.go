package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/internal/pgtest"
	"github.com/grotto-game/grotto/store"
	"github.com/grotto-game/grotto/store/bolt"
	"github.com/grotto-game/grotto/store/postgres"
)

// fillBolt makes a bbolt file through the store API with a bit of
// everything: players with names and settings, saves with journals,
// scores with ties, and a quarantined game.
func fillBolt(t *testing.T, path string) {
	b, err := bolt.Open(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for i := range 6 {
		fp := fmt.Sprintf("SHA256:p%d", i)
		must(t, b.ClaimName(fp, fmt.Sprintf("Player%d", i), when.Add(time.Duration(i)*time.Hour)))
		if i%2 == 0 {
			p, err := b.Profile(fp)
			must(t, err)
			p.Settings = store.Settings{Symbols: "ascii", Colour: "256"}
			must(t, b.PutProfile(p))
		}
		must(t, b.PutSave(fp, []byte(fmt.Sprintf("save of %d", i))))
		for seq := range i {
			must(t, b.AppendJournal(fp, uint64(seq), []byte(fmt.Sprintf("cmd %d.%d", i, seq))))
		}
	}
	must(t, b.ClaimName("SHA256:p0", "Renamed", when)) // frees Player0
	// Scores: ties on points and date rank in the order recorded, and the
	// dates carry nanoseconds, which must survive.
	for i, pts := range []int{100, 300, 100, 100, 50} {
		date := when.Add(time.Duration(i%2) * time.Nanosecond)
		sc := store.Score{Name: fmt.Sprintf("s%d", i), Points: pts,
			Depth: i + 1, Turns: 10 * i, Kills: i, Cause: "killed by a test", Date: date}
		if i%2 == 0 { // a game kept whole; the others as before games were kept
			sc.Game = &store.GameRecord{Seed: uint64(i), Rules: "1.0123456789ab", Hash: "hash", History: []byte{1, byte(i)}, Dump: "dump"}
		}
		_, err := b.FinishGame(fmt.Sprintf("SHA256:s%d", i), sc)
		must(t, err)
	}
	_, err = b.FinishGame("SHA256:cheat", store.Score{Name: "cheat", Points: 5000, Cheated: true, Cause: "escaped", Date: when,
		Game: &store.GameRecord{Won: true, Seed: 1 << 63, Rules: "1.0123456789ab", History: []byte{1}}})
	must(t, err)
	_, err = b.Quarantine("SHA256:p5", "checksum mismatch", when)
	must(t, err)
	// The daily challenge: the host's secret, a day's board (two equal
	// scores, which rank in the order recorded) and the keys' attempts.
	_, err = b.DailySecret()
	must(t, err)
	for i, fp := range []string{"SHA256:d0", "SHA256:d1", "SHA256:d2", "SHA256:p1"} {
		must(t, b.StartDaily(fp, dailyDate, when.Add(time.Duration(i)*time.Minute)))
		if i == 3 { // started, not finished yet
			break
		}
		sc := store.Score{Name: fmt.Sprintf("d%d", i), Points: []int{70, 70, 90}[i], Depth: 2, Turns: 300, Cause: "killed by a rat",
			Date: when.Add(time.Duration(i%2) * time.Nanosecond), Daily: dailyDate,
			Game: &store.GameRecord{Seed: uint64(100 + i), Rules: "1.0123456789ab", Hash: "hash", History: []byte{1}, Dump: "dump"}}
		_, err := b.FinishGame(fp, sc)
		must(t, err)
	}
	must(t, b.StartDaily("SHA256:d0", "2026-02-28", when.Add(-24*time.Hour)))
	// Moderation: a ban that holds, one lifted, a score taken off the
	// table (s0's 100, game 1).
	for _, a := range []store.Act{
		{Action: store.ActBan, Fingerprint: "SHA256:p1", Detail: "spam"},
		{Action: store.ActBan, Fingerprint: "SHA256:p2"},
		{Action: store.ActUnban, Fingerprint: "SHA256:p2", Detail: "appeal"},
		{Action: store.ActRemoveScore, GameID: 1, Detail: "a bug"},
	} {
		a.When, a.Admin = when, "SHA256:admin"
		_, err := b.Moderate(a)
		must(t, err)
	}
}

// dailyDate is the day of fillBolt's daily challenge.
const dailyDate = "2026-03-01"

// when is fillBolt's time; PostgreSQL keeps microseconds of a profile's.
var when = time.Date(2026, 3, 1, 10, 0, 0, 123456000, time.UTC)

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// tables returns every row of every table, as text, in key order.
func tables(t *testing.T, url string) string {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	must(t, err)
	defer conn.Close(ctx)
	var out strings.Builder
	for _, q := range []string{
		`SELECT p::text FROM players p ORDER BY fp`, `SELECT n::text FROM names n ORDER BY name_key`,
		`SELECT s::text FROM saves s ORDER BY fp`, `SELECT j::text FROM journal j ORDER BY fp, seq`,
		`SELECT s::text FROM scores s ORDER BY id`, `SELECT q::text FROM quarantine q ORDER BY key`,
		`SELECT f::text FROM finished f ORDER BY id`, `SELECT a::text FROM daily_attempts a ORDER BY day, fp`,
		`SELECT s::text FROM daily_secret s`, `SELECT m::text FROM moderation m ORDER BY id`,
		`SELECT b::text FROM bans b ORDER BY fp`, `SELECT r::text FROM removed_scores r ORDER BY game_id`,
	} {
		rows, err := conn.Query(ctx, q)
		must(t, err)
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		must(t, err)
		fmt.Fprintf(&out, "%s\n%s\n", q, strings.Join(lines, "\n"))
	}
	return out.String()
}

func TestCopyStoreCopiesEverythingAndTwiceChangesNothing(t *testing.T) {
	from := filepath.Join(t.TempDir(), "grotto.db")
	fillBolt(t, from)
	url := pgtest.NewDatabase(t)
	var out, errs bytes.Buffer
	if code := copyStore([]string{"--from", from, "--to", url}, &out, &errs); code != 0 {
		t.Fatalf("copy-store exited %d: %s", code, errs.String())
	}
	if !strings.Contains(out.String(), "6 players, 6 names, 5 saves, 10 journal entries, 5 scores, 7 finished games, 1 quarantined, "+
		"3 daily scores, 5 daily attempts, 4 moderation acts, the daily secret") ||
		!strings.Contains(out.String(), "counts match") {
		t.Errorf("copy-store said %q", out.String())
	}
	first := tables(t, url)

	// What a player or host sees is the same on both stores.
	b, err := bolt.Open(from, time.Second)
	must(t, err)
	pg, err := postgres.Open(context.Background(), url)
	must(t, err)
	for i := range 6 {
		fp := fmt.Sprintf("SHA256:p%d", i)
		bp, err1 := b.Profile(fp)
		pp, err2 := pg.Profile(fp)
		if err1 != nil || err2 != nil || bp.Name != pp.Name || bp.Settings != pp.Settings ||
			!bp.Created.Equal(pp.Created) || !bp.LastSeen.Equal(pp.LastSeen) {
			t.Errorf("%s: bbolt %+v (%v), PostgreSQL %+v (%v)", fp, bp, err1, pp, err2)
		}
		bs, err1 := b.Save(fp)
		ps, err2 := pg.Save(fp)
		if string(bs) != string(ps) || (err1 == nil) != (err2 == nil) {
			t.Errorf("%s's save: bbolt %q (%v), PostgreSQL %q (%v)", fp, bs, err1, ps, err2)
		}
		bj, _ := b.Journal(fp)
		pj, err := pg.Journal(fp)
		if err != nil || !slices.EqualFunc(bj, pj, bytes.Equal) {
			t.Errorf("%s's journal: bbolt %q, PostgreSQL %q (%v)", fp, bj, pj, err)
		}
	}
	for _, name := range []string{"player0", "RENAMED", "Player3"} {
		bh, _ := b.NameHolder(name)
		ph, err := pg.NameHolder(name)
		if err != nil || bh != ph {
			t.Errorf("%s is held by %q on bbolt, %q (%v) on PostgreSQL", name, bh, ph, err)
		}
	}
	bt, _ := b.TopScores(10)
	pt, err := pg.TopScores(10)
	if err != nil || !slices.EqualFunc(bt, pt, func(x, y store.Score) bool {
		return x.Fingerprint == y.Fingerprint && x.Date.Equal(y.Date) && x.Points == y.Points && x.Name == y.Name &&
			x.Depth == y.Depth && x.Turns == y.Turns && x.Kills == y.Kills && x.Cause == y.Cause
	}) {
		t.Errorf("the score table differs:\nbbolt      %+v\nPostgreSQL %+v (%v)", bt, pt, err)
	}
	bf, _ := b.FinishedGames("", 10)
	pf, err := pg.FinishedGames("", 10)
	if err != nil || len(bf) != 7 || !slices.EqualFunc(bf, pf, func(x, y store.Finished) bool {
		return x.ID == y.ID && x.Score.Date.Equal(y.Score.Date) && x.Score.Cheated == y.Score.Cheated && x.Record.Seed == y.Record.Seed
	}) {
		t.Errorf("the finished games differ:\nbbolt      %+v\nPostgreSQL %+v (%v)", bf, pf, err)
	}
	if bg, _ := b.FinishedGame(2); true {
		pgg, err := pg.FinishedGame(2)
		if err != nil || string(bg.Record.History) != string(pgg.Record.History) || bg.Record.Dump != pgg.Record.Dump || !pgg.Score.Date.Equal(bg.Score.Date) {
			t.Errorf("finished game 2: bbolt %+v, PostgreSQL %+v (%v)", bg, pgg, err)
		}
	}
	// Moderation: the same bans, the same log, the removed score off
	// both tables (compared above) and marked on both.
	bb, _ := b.Bans()
	pb, err := pg.Bans()
	if err != nil || len(bb) != 1 || !slices.Equal(bb, pb) {
		t.Errorf("the bans differ: bbolt %+v, PostgreSQL %+v (%v)", bb, pb, err)
	}
	bl, _ := b.ModerationLog(10)
	pl, err := pg.ModerationLog(10)
	if err != nil || len(bl) != 4 || !slices.EqualFunc(bl, pl, func(x, y store.Act) bool {
		return x.Seq == y.Seq && x.When.Equal(y.When) && x.Action == y.Action && x.Fingerprint == y.Fingerprint && x.Detail == y.Detail && x.GameID == y.GameID
	}) {
		t.Errorf("the moderation logs differ: bbolt %+v, PostgreSQL %+v (%v)", bl, pl, err)
	}
	if f, err := pg.FinishedGame(1); err != nil || !f.Score.Removed {
		t.Errorf("the removed score's game on PostgreSQL: %+v (%v), want marked removed", f.Score, err)
	}
	bq, _ := b.Quarantined("")
	pq, err := pg.Quarantined("")
	if err != nil || len(bq) != 1 || len(pq) != 1 || bq[0].Key != pq[0].Key || bq[0].SaveBytes != pq[0].SaveBytes ||
		bq[0].JournalEntries != pq[0].JournalEntries || !bq[0].When.Equal(pq[0].When) {
		t.Errorf("the quarantine differs: bbolt %+v, PostgreSQL %+v (%v)", bq, pq, err)
	}
	// The daily: the same secret, so the same dungeon for a player who
	// starts that day's daily after the move; the same board; and a key
	// that used its attempt before the move cannot start again.
	bs, err1 := b.DailySecret()
	ps, err2 := pg.DailySecret()
	if err1 != nil || err2 != nil || game.DailySeed(bs, dailyDate) != game.DailySeed(ps, dailyDate) {
		t.Errorf("the daily of %s: seed %d on bbolt (%v), %d on PostgreSQL (%v); want the same dungeon",
			dailyDate, game.DailySeed(bs, dailyDate), err1, game.DailySeed(ps, dailyDate), err2)
	}
	var rank int
	bd, _ := b.DailyScores(dailyDate, 10)
	pd, err := pg.DailyScores(dailyDate, 10)
	if err != nil || len(bd) != 3 || !slices.EqualFunc(bd, pd, func(x, y store.Score) bool {
		return x.Fingerprint == y.Fingerprint && x.Date.Equal(y.Date) && x.Points == y.Points && x.GameID == y.GameID
	}) {
		t.Errorf("the board of %s differs:\nbbolt      %+v\nPostgreSQL %+v (%v)", dailyDate, bd, pd, err)
	}
	for _, fp := range []string{"SHA256:d0", "SHA256:p1"} {
		if err := pg.StartDaily(fp, dailyDate, when.Add(time.Hour)); !errors.Is(err, store.ErrDailyTaken) {
			t.Errorf("%s, who started the daily of %s on bbolt, starts it again on PostgreSQL: %v, want ErrDailyTaken", fp, dailyDate, err)
		}
	}
	if err := pg.StartDaily("SHA256:p2", dailyDate, when.Add(time.Hour)); err != nil {
		t.Errorf("a key that had not started the daily of %s: %v", dailyDate, err)
	}
	rank, err = pg.FinishGame("SHA256:p2", store.Score{Name: "p2", Points: 70, Date: when.Add(time.Nanosecond), Daily: dailyDate})
	if err != nil || rank != 4 {
		t.Errorf("a daily score equal to the 3rd after the move ranked %d (%v), want 4", rank, err)
	}
	b.Close()
	pg.Close()
	func() { // undo p2's daily: the second copy must find the database as the first left it
		conn, err := pgx.Connect(context.Background(), url)
		must(t, err)
		defer conn.Close(context.Background())
		_, err = conn.Exec(context.Background(), `DELETE FROM daily_attempts WHERE fp = 'SHA256:p2'; DELETE FROM scores WHERE fp = 'SHA256:p2'`)
		must(t, err)
	}()

	// Twice: nothing changes.
	out.Reset()
	if code := copyStore([]string{"--from", from, "--to", url}, &out, &errs); code != 0 {
		t.Fatalf("copy-store exited %d the second time: %s", code, errs.String())
	}
	if second := tables(t, url); second != first {
		t.Errorf("the second copy changed the database:\nfirst:\n%s\nsecond:\n%s", first, second)
	}

	// A game finished after the move ranks among the copied ones on the
	// table, after the equal score (same points, same date) recorded
	// before it: 300, 100, then it (the other 100, game 1, was removed).
	pg, err = postgres.Open(context.Background(), url)
	must(t, err)
	defer pg.Close()
	rank, err = pg.FinishGame("SHA256:new", store.Score{Name: "new", Points: 100, Cause: "test", Date: bt[1].Date})
	if err != nil || rank != 3 {
		t.Errorf("a new 100-point score at the date of the best one ranked %d (%v), want 3", rank, err)
	}
	if _, err := pg.FinishGame("SHA256:new", store.Score{Name: "new", Points: 1, Date: bt[1].Date.Add(time.Hour),
		Game: &store.GameRecord{History: []byte{1}}}); err != nil {
		t.Fatal(err)
	}
	if f, err := pg.FinishedGames("new", 1); err != nil || len(f) != 1 || f[0].ID != 8 {
		t.Errorf("a game finished after the copy: %+v (%v), want id 8, after the 7 copied", f, err)
	}
}

// TestCopyStoreRefusesADatabaseWithAnotherDailySecret: a database that
// made its own daily secret (a node started on it) would give the days
// already played on bbolt other dungeons: the copy is refused, nothing is
// written, and the host is told why.
func TestCopyStoreRefusesADatabaseWithAnotherDailySecret(t *testing.T) {
	from := filepath.Join(t.TempDir(), "grotto.db")
	fillBolt(t, from)
	url := pgtest.NewDatabase(t)
	pg, err := postgres.Open(context.Background(), url)
	must(t, err)
	theirs, err := pg.DailySecret()
	must(t, err)
	pg.Close()
	var out, errs bytes.Buffer
	if code := copyStore([]string{"--from", from, "--to", url}, &out, &errs); code != 1 ||
		!strings.Contains(errs.String(), "nothing was copied") || !strings.Contains(errs.String(), "daily secret") ||
		!strings.Contains(errs.String(), "new database") {
		t.Errorf("a database with another daily secret: exit %d, stdout %q, stderr %q; want refused, saying why", code, out.String(), errs.String())
	}
	pg, err = postgres.Open(context.Background(), url)
	must(t, err)
	defer pg.Close()
	if n, err := pg.Counts(context.Background()); err != nil || n.Players != 0 {
		t.Errorf("after the refusal the database holds %+v (%v), want nothing copied", n, err)
	}
	if s, err := pg.DailySecret(); err != nil || !bytes.Equal(s, theirs) {
		t.Errorf("after the refusal the database's daily secret changed: %x (%v), want %x", s, err, theirs)
	}
}

func TestCopyStoreRefusesBadUsageAndALockedFile(t *testing.T) {
	var out, errs bytes.Buffer
	if code := copyStore([]string{"--to", "postgres://x/y"}, &out, &errs); code != 2 || !strings.Contains(errs.String(), "--from") {
		t.Errorf("no --from: exit %d, %q", code, errs.String())
	}
	from := filepath.Join(t.TempDir(), "grotto.db")
	errs.Reset()
	if code := copyStore([]string{"--from", from, "--to", "mysql://x/y"}, &out, &errs); code != 2 || !strings.Contains(errs.String(), "--to") {
		t.Errorf("a --to that is no postgres URL: exit %d, %q", code, errs.String())
	}
	b, err := bolt.Open(from, time.Second)
	must(t, err)
	defer b.Close()
	errs.Reset()
	if code := copyStore([]string{"--from", from, "--to", "postgres://127.0.0.1:1/x"}, &out, &errs); code != 1 ||
		!strings.Contains(errs.String(), "stop it first") {
		t.Errorf("a file in use: exit %d, %q", code, errs.String())
	}
}

// TestCopyStoreOntoADatabaseInUseChangesNothing: copying the file again
// after servers have run on the database would put players' games back to
// the file's older saves. A database a server played on (it holds a
// lease), or one that holds records the file does not (counted in the
// copy's own transaction), is refused, and not one row changes.
func TestCopyStoreOntoADatabaseInUseChangesNothing(t *testing.T) {
	from := filepath.Join(t.TempDir(), "grotto.db")
	fillBolt(t, from)
	// newer is the same file eight turns later for p1: as many records of
	// each kind, p1's save and journal newer.
	newer := filepath.Join(t.TempDir(), "grotto.db")
	raw, err := os.ReadFile(from)
	must(t, err)
	must(t, os.WriteFile(newer, raw, 0o600))
	b, err := bolt.Open(newer, time.Second)
	must(t, err)
	must(t, b.PutSave("SHA256:p1", []byte("p1 eight turns later")))
	must(t, b.AppendJournal("SHA256:p1", 0, []byte("a later cmd")))
	b.Close()
	for _, tc := range []struct {
		name, want string
		use        func(pg *postgres.Store)
		first      string // the file copied first; from when ""
	}{
		{"a copy of a newer file", "another version of that game", func(*postgres.Store) {}, newer},
		{"a server played on it", "a server has played", func(pg *postgres.Store) {
			// p1 goes on playing its copied game on a node: a lease, a
			// newer save under it.
			epoch, err := pg.Claim(context.Background(), "SHA256:p1", "node-a/1", time.Minute)
			must(t, err)
			must(t, pg.PutSaveAt("SHA256:p1", epoch, []byte("p1 ten turns later")))
		}, ""},
		{"it holds a player the file does not", "would hold 7 players", func(pg *postgres.Store) {
			must(t, pg.ClaimName("SHA256:newcomer", "Newcomer", when))
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := pgtest.NewDatabase(t)
			var out, errs bytes.Buffer
			first := tc.first
			if first == "" {
				first = from
			}
			if code := copyStore([]string{"--from", first, "--to", url}, &out, &errs); code != 0 {
				t.Fatalf("the first copy: exit %d, %s", code, errs.String())
			}
			pg, err := postgres.Open(context.Background(), url)
			must(t, err)
			tc.use(pg)
			pg.Close()
			before := tables(t, url)
			out.Reset()
			errs.Reset()
			code := copyStore([]string{"--from", from, "--to", url}, &out, &errs)
			if code != 1 || !strings.Contains(errs.String(), "nothing was copied") || !strings.Contains(errs.String(), tc.want) ||
				!strings.Contains(errs.String(), "new database") {
				t.Errorf("copying again: exit %d, stdout %q, stderr %q; want 1, nothing copied, %q", code, out.String(), errs.String(), tc.want)
			}
			if after := tables(t, url); after != before {
				t.Errorf("the refused copy changed the database:\nbefore:\n%s\nafter:\n%s", before, after)
			}
		})
	}
}
