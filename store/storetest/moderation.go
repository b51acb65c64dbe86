// The moderation contract (see store.Moderation): renames, scores taken
// off the tables and put back, bans, mutes, and the log of every act.

package storetest

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/grotto-game/grotto/store"
)

// ModeratedStore is a store with moderation.
type ModeratedStore interface {
	store.Store
	store.Moderation
}

// RunModeration runs the moderation contract against the stores open
// returns (a new, empty store each call; the suite closes it).
func RunModeration(t *testing.T, open func(t *testing.T) ModeratedStore) {
	for _, c := range []struct {
		name string
		test func(*testing.T, ModeratedStore)
	}{
		{"a rename changes the name everywhere it shows and frees the old one", rename},
		{"a removed score leaves its table, stays kept and marked, and comes back", removeScore},
		{"a ban holds the key and its name until it is lifted", ban},
		{"a mute holds the key in the chat until it is lifted, apart from bans", mute},
		{"the mutes list every key muted now, oldest first, and no ban", mutes},
		{"every act is logged, newest first, with the admin and the reason", moderationLog},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := open(t)
			defer st.Close()
			c.test(t, st)
		})
	}
}

const admin = "SHA256:admin"

// finishOne ends a game of fp under name with points, on the main table
// (or date's daily board), and returns its finished game's id.
func finishOne(t *testing.T, st store.Store, fp, name string, points int, daily string) uint64 {
	t.Helper()
	at := when.Add(time.Duration(points) * time.Second)
	if _, err := st.FinishGame(fp, store.Score{Name: name, Points: points, Depth: 2, Turns: 300, Cause: "killed by a rat",
		Date: at, Daily: daily, Game: gameRecord(uint64(points))}); err != nil {
		t.Fatal(err)
	}
	all, err := st.FinishedGames(name, 50)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range all {
		if f.Score.Date.Equal(at) {
			return f.ID
		}
	}
	t.Fatalf("the game of %s with %d points is not kept", name, points)
	return 0
}

func rename(t *testing.T, st ModeratedStore) {
	if err := st.ClaimName("SHA256:a", "Rude", when); err != nil {
		t.Fatal(err)
	}
	if err := st.ClaimName("SHA256:b", "Bea", when); err != nil {
		t.Fatal(err)
	}
	finishOne(t, st, "SHA256:a", "Rude", 100, "")
	finishOne(t, st, "SHA256:a", "Rude", 60, "2026-11-30")

	if _, err := st.Moderate(store.Act{When: when, Admin: admin, Action: store.ActRename, Fingerprint: "SHA256:a", NewName: "bea"}); !errors.Is(err, store.ErrNameTaken) {
		t.Errorf("a rename to another key's name (in other case): %v, want ErrNameTaken", err)
	}
	if _, err := st.Moderate(store.Act{When: when, Admin: admin, Action: store.ActRename, Fingerprint: "SHA256:nobody", NewName: "X"}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a rename of a key with no profile: %v, want ErrNotFound", err)
	}
	act, err := st.Moderate(store.Act{When: when, Admin: admin, Action: store.ActRename, Fingerprint: "SHA256:a", NewName: "Ann", Detail: "offensive"})
	if err != nil || act.Name != "Rude" || act.Seq == 0 {
		t.Fatalf("rename: %+v (%v), want the name before (Rude) and a seq", act, err)
	}
	if p, err := st.Profile("SHA256:a"); err != nil || p.Name != "Ann" {
		t.Errorf("the profile after the rename: %+v (%v), want Ann", p, err)
	}
	if fp, _ := st.NameHolder("ann"); fp != "SHA256:a" {
		t.Errorf("Ann is held by %q, want the renamed key", fp)
	}
	if fp, _ := st.NameHolder("rude"); fp != "" {
		t.Errorf("the old name is still held by %q", fp)
	}
	top, err := st.TopScores(10)
	if err != nil || len(top) != 1 || top[0].Name != "Ann" {
		t.Errorf("the table after the rename: %+v (%v), want Ann's score under Ann", top, err)
	}
	day, err := st.DailyScores("2026-11-30", 10)
	if err != nil || len(day) != 1 || day[0].Name != "Ann" {
		t.Errorf("the daily board after the rename: %+v (%v), want Ann's score under Ann", day, err)
	}
	if old, _ := st.FinishedGames("Rude", 10); len(old) != 0 {
		t.Errorf("%d finished games still listed under the old name", len(old))
	}
	if games, err := st.FinishedGames("Ann", 10); err != nil || len(games) != 2 {
		t.Errorf("finished games under the new name: %d (%v), want 2", len(games), err)
	}
}

func removeScore(t *testing.T, st ModeratedStore) {
	a := finishOne(t, st, "SHA256:a", "Ann", 500, "")
	b := finishOne(t, st, "SHA256:b", "Bob", 400, "")
	d := finishOne(t, st, "SHA256:b", "Bob", 300, "2026-11-30")

	act, err := st.Moderate(store.Act{When: when, Admin: admin, Action: store.ActRemoveScore, GameID: a, Detail: "a bug"})
	if err != nil || act.Fingerprint != "SHA256:a" || act.Name != "Ann" {
		t.Fatalf("remove-score: %+v (%v), want Ann's key and name filled in", act, err)
	}
	if _, err := st.Moderate(store.Act{When: when, Admin: admin, Action: store.ActRemoveScore, GameID: a}); !errors.Is(err, store.ErrNoScore) {
		t.Errorf("removing a removed score: %v, want ErrNoScore", err)
	}
	if _, err := st.Moderate(store.Act{When: when, Admin: admin, Action: store.ActRemoveScore, GameID: 999}); !errors.Is(err, store.ErrNoScore) {
		t.Errorf("removing the score of a game not kept: %v, want ErrNoScore", err)
	}
	top, err := st.TopScores(10)
	if err != nil || len(top) != 1 || top[0].GameID != b {
		t.Errorf("the table: %+v (%v), want only Bob's", top, err)
	}
	// The next game ranks among the scores on the table, not the removed.
	if rank, err := st.FinishGame("SHA256:c", store.Score{Name: "Cy", Points: 450, Cause: "x", Date: when}); err != nil || rank != 1 {
		t.Errorf("a 450-point game ranked %d (%v) under a removed 500, want 1", rank, err)
	}
	f, err := st.FinishedGame(a)
	if err != nil || !f.Score.Removed || f.Score.Points != 500 {
		t.Errorf("the removed game: %+v (%v), want kept, marked removed", f.Score, err)
	}
	if list, err := st.FinishedGames("Ann", 10); err != nil || len(list) != 1 || !list[0].Score.Removed {
		t.Errorf("Ann's games: %+v (%v), want the one, marked removed", list, err)
	}
	if _, err := st.Moderate(store.Act{When: when, Admin: admin, Action: store.ActRemoveScore, GameID: d}); err != nil {
		t.Fatal(err)
	}
	if day, err := st.DailyScores("2026-11-30", 10); err != nil || len(day) != 0 {
		t.Errorf("the daily board: %+v (%v), want the removed score gone", day, err)
	}
	if _, err := st.Moderate(store.Act{When: when, Admin: admin, Action: store.ActRestoreScore, GameID: b}); !errors.Is(err, store.ErrNoScore) {
		t.Errorf("restoring a score on its table: %v, want ErrNoScore", err)
	}
	if _, err := st.Moderate(store.Act{When: when, Admin: admin, Action: store.ActRestoreScore, GameID: a}); err != nil {
		t.Fatal(err)
	}
	if top, err := st.TopScores(10); err != nil || len(top) != 3 || top[0].GameID != a {
		t.Errorf("the table after the restore: %+v (%v), want Ann's first again", top, err)
	}
	if f, err := st.FinishedGame(a); err != nil || f.Score.Removed {
		t.Errorf("the restored game: %+v (%v), want no longer marked", f.Score, err)
	}
	// A game set aside as damaged keeps its score on the table: it can
	// still be removed, and put back after.
	if _, err := st.QuarantineFinished(b, "damaged", when); err != nil {
		t.Fatal(err)
	}
	if act, err := st.Moderate(store.Act{When: when, Admin: admin, Action: store.ActRemoveScore, GameID: b}); err != nil || act.Name != "Bob" {
		t.Errorf("removing the score of a game set aside: %+v (%v)", act, err)
	}
	if top, _ := st.TopScores(10); len(top) != 2 {
		t.Errorf("the table after removing the set-aside game's score: %+v", top)
	}
	if _, err := st.Moderate(store.Act{When: when, Admin: admin, Action: store.ActRestoreScore, GameID: b}); err != nil {
		t.Errorf("restoring the score of a game set aside: %v", err)
	}
}

func ban(t *testing.T, st ModeratedStore) {
	if err := st.ClaimName("SHA256:a", "Ann", when); err != nil {
		t.Fatal(err)
	}
	if _, banned, err := st.Banned("SHA256:a"); err != nil || banned {
		t.Errorf("a key never banned: banned %v (%v)", banned, err)
	}
	if _, err := st.Moderate(store.Act{When: when, Admin: admin, Action: store.ActUnban, Fingerprint: "SHA256:a"}); !errors.Is(err, store.ErrNotBanned) {
		t.Errorf("unbanning a key not banned: %v, want ErrNotBanned", err)
	}
	act, err := st.Moderate(store.Act{When: when, Admin: admin, Action: store.ActBan, Fingerprint: "SHA256:a", Detail: "spam"})
	if err != nil || act.Name != "Ann" {
		t.Fatalf("ban: %+v (%v), want the name filled in", act, err)
	}
	got, banned, err := st.Banned("SHA256:a")
	if err != nil || !banned || got.Detail != "spam" || got.Name != "Ann" || got.Admin != admin || !got.When.Equal(when) {
		t.Errorf("Banned: %+v %v (%v), want the act", got, banned, err)
	}
	// A key with no player yet can be banned too (by key).
	if _, err := st.Moderate(store.Act{When: when, Admin: admin, Action: store.ActBan, Fingerprint: "SHA256:z"}); err != nil {
		t.Fatal(err)
	}
	if fp, _ := st.NameHolder("ann"); fp != "SHA256:a" {
		t.Errorf("a banned key's name is held by %q: another key could take it", fp)
	}
	bans, err := st.Bans()
	if err != nil || len(bans) != 2 || bans[0].Fingerprint != "SHA256:a" || bans[1].Fingerprint != "SHA256:z" {
		t.Errorf("Bans: %+v (%v), want a then z", bans, err)
	}
	if _, err := st.Moderate(store.Act{When: when, Admin: admin, Action: store.ActUnban, Fingerprint: "SHA256:a"}); err != nil {
		t.Fatal(err)
	}
	if _, banned, err := st.Banned("SHA256:a"); err != nil || banned {
		t.Errorf("after the unban: banned %v (%v)", banned, err)
	}
	if bans, err := st.Bans(); err != nil || len(bans) != 1 {
		t.Errorf("Bans after one unban: %+v (%v), want one", bans, err)
	}
}

func mute(t *testing.T, st ModeratedStore) {
	if err := st.ClaimName("SHA256:a", "Ann", when); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Moderate(store.Act{When: when, Admin: admin, Action: store.ActUnmute, Fingerprint: "SHA256:a"}); !errors.Is(err, store.ErrNotMuted) {
		t.Errorf("unmuting a key not muted: %v, want ErrNotMuted", err)
	}
	act, err := st.Moderate(store.Act{When: when, Admin: admin, Action: store.ActMute, Fingerprint: "SHA256:a", Detail: "flood"})
	if err != nil || act.Name != "Ann" {
		t.Fatalf("mute: %+v (%v), want the name filled in", act, err)
	}
	got, muted, err := st.Muted("SHA256:a")
	if err != nil || !muted || got.Detail != "flood" || got.Action != store.ActMute || got.Admin != admin {
		t.Errorf("Muted: %+v %v (%v), want the act", got, muted, err)
	}
	if _, banned, err := st.Banned("SHA256:a"); err != nil || banned {
		t.Errorf("a muted key is banned: %v (%v)", banned, err)
	}
	if _, err := st.Moderate(store.Act{When: when, Admin: admin, Action: store.ActUnban, Fingerprint: "SHA256:a"}); !errors.Is(err, store.ErrNotBanned) {
		t.Errorf("an unban lifts a mute: %v", err)
	}
	if _, err := st.Moderate(store.Act{When: when, Admin: admin, Action: store.ActUnmute, Fingerprint: "SHA256:a"}); err != nil {
		t.Fatal(err)
	}
	if _, muted, err := st.Muted("SHA256:a"); err != nil || muted {
		t.Errorf("after the unmute: muted %v (%v)", muted, err)
	}
	if acts, err := st.ModerationLog(10); err != nil || len(acts) != 2 || acts[0].Action != store.ActUnmute {
		t.Errorf("the log of a mute and an unmute: %+v (%v)", acts, err)
	}
}

func mutes(t *testing.T, st ModeratedStore) {
	if err := st.ClaimName("SHA256:a", "Ann", when); err != nil {
		t.Fatal(err)
	}
	if acts, err := st.Mutes(); err != nil || len(acts) != 0 {
		t.Errorf("a new store's mutes: %+v (%v), want none", acts, err)
	}
	for _, a := range []store.Act{
		{Action: store.ActMute, Fingerprint: "SHA256:a", Detail: "flood"},
		{Action: store.ActBan, Fingerprint: "SHA256:b"},
		{Action: store.ActMute, Fingerprint: "SHA256:z"}, // a key with no player yet
	} {
		a.When, a.Admin = when, admin
		if _, err := st.Moderate(a); err != nil {
			t.Fatalf("%s %s: %v", a.Action, a.Fingerprint, err)
		}
	}
	got, err := st.Mutes()
	if err != nil || len(got) != 2 || got[0].Fingerprint != "SHA256:a" || got[1].Fingerprint != "SHA256:z" {
		t.Fatalf("Mutes: %+v (%v), want a then z", got, err)
	}
	if got[0].Name != "Ann" || got[0].Detail != "flood" || got[0].Admin != admin || got[0].Action != store.ActMute || !got[0].When.Equal(when) {
		t.Errorf("Mutes' first act: %+v, want the mute of Ann as recorded", got[0])
	}
	if bans, err := st.Bans(); err != nil || len(bans) != 1 || bans[0].Fingerprint != "SHA256:b" {
		t.Errorf("Bans beside the mutes: %+v (%v), want only b", bans, err)
	}
	if _, err := st.Moderate(store.Act{When: when, Admin: admin, Action: store.ActUnmute, Fingerprint: "SHA256:a"}); err != nil {
		t.Fatal(err)
	}
	if got, err := st.Mutes(); err != nil || len(got) != 1 || got[0].Fingerprint != "SHA256:z" {
		t.Errorf("Mutes after one unmute: %+v (%v), want z", got, err)
	}
}

func moderationLog(t *testing.T, st ModeratedStore) {
	if acts, err := st.ModerationLog(10); err != nil || len(acts) != 0 {
		t.Errorf("a new store's log: %+v (%v), want empty", acts, err)
	}
	if err := st.ClaimName("SHA256:a", "Ann", when); err != nil {
		t.Fatal(err)
	}
	for i, a := range []store.Act{
		{Action: store.ActBan, Fingerprint: "SHA256:a", Detail: "first"},
		{Action: store.ActUnban, Fingerprint: "SHA256:a", Detail: "second"},
		{Action: store.ActRename, Fingerprint: "SHA256:a", NewName: "Ada", Detail: "third"},
	} {
		a.When, a.Admin = when.Add(time.Duration(i)*time.Minute), fmt.Sprintf("SHA256:admin%d", i)
		if _, err := st.Moderate(a); err != nil {
			t.Fatal(err)
		}
	}
	// A refused act is not logged.
	if _, err := st.Moderate(store.Act{When: when, Admin: admin, Action: store.ActUnban, Fingerprint: "SHA256:a"}); err == nil {
		t.Fatal("an unban of a key not banned was accepted")
	}
	acts, err := st.ModerationLog(2)
	if err != nil || len(acts) != 2 {
		t.Fatalf("the log's last 2: %+v (%v)", acts, err)
	}
	if acts[0].Detail != "third" || acts[0].Name != "Ann" || acts[0].NewName != "Ada" || acts[0].Admin != "SHA256:admin2" ||
		acts[1].Detail != "second" || acts[0].Seq <= acts[1].Seq {
		t.Errorf("the log: %+v, want the rename (Ann to Ada, by admin2) then the unban, newest first", acts)
	}
	if all, _ := st.ModerationLog(100); len(all) != 3 {
		t.Errorf("the whole log holds %d acts, want 3", len(all))
	}
}
