package server

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/grotto-game/grotto/internal/await"
	"github.com/grotto-game/grotto/internal/sshtest"
	"github.com/grotto-game/grotto/keys"
	"github.com/grotto-game/grotto/server/session"
	"github.com/grotto-game/grotto/store"
)

// TestAnAdminBansAPlayerByNameOnEveryLoginAndTheActIsLogged: `ban NAME`
// ends the player's session with its game saved, refuses the key at
// every login after (kept in the store, not the banned-keys file), keeps
// the name held by the key, and `moderation` shows who did it and why.
func TestAnAdminBansAPlayerByNameOnEveryLoginAndTheActIsLogged(t *testing.T) {
	admin, bad := newKey(t), newKey(t)
	srv, addr, _ := startWithAdmins(t, admin)
	c := dial(t, addr, bad, 100, 30)
	newGame(t, c)
	wantTurn := atoi(turn(walk(t, c, 2)))
	name := listedName(t, srv)

	out, status := commandAs(t, addr, admin, "ban "+strings.ToLower(name)+" spamming the chat")
	if status != 0 || !strings.Contains(out, "banned "+name) || !strings.Contains(out, "not a person with a new one") {
		t.Errorf("the admin's ban: status %d, %q", status, out)
	}
	if bye := ended(t, c); !strings.Contains(bye, "This key is banned from this server; your game is saved.") {
		t.Errorf("the banned player read:\n%s", bye)
	}
	if got := savedTurn(srv, bad); got != wantTurn {
		t.Errorf("saved at turn %d, want %d", got, wantTurn)
	}
	if out := ended(t, dial(t, addr, bad, 100, 30)); !strings.Contains(out, "This key is banned from this server.") {
		t.Errorf("the banned key logged in again: %q", out)
	}
	if out, status := commandAs(t, addr, bad, "who"); status != 1 || !strings.Contains(out, "banned") {
		t.Errorf("the banned key's `who`: status %d, %q", status, out)
	}
	// Another key cannot take the banned player's name.
	if fp, _ := srv.Store().NameHolder(name); fp != keys.Fingerprint(bad.PublicKey()) {
		t.Errorf("the banned name is held by %q", fp)
	}

	log, status := commandAs(t, addr, admin, "moderation")
	adminFP := keys.Fingerprint(admin.PublicKey())
	if status != 0 || !strings.Contains(log, adminFP) || !strings.Contains(log, "ban") || !strings.Contains(log, name) ||
		!strings.Contains(log, "spamming the chat") {
		t.Errorf("`moderation`: status %d,\n%s", status, log)
	}
	if bans, _ := commandAs(t, addr, admin, "bans"); !strings.Contains(bans, name) {
		t.Errorf("`bans`:\n%s", bans)
	}
	if out, status := commandAs(t, addr, admin, "unban "+name+" appeal granted"); status != 0 || !strings.Contains(out, "lifted the ban of "+name) {
		t.Errorf("unban: status %d, %q", status, out)
	}
	again := dial(t, addr, bad, 100, 30)
	waitText(t, again, "Continue")

	// What a breaker tried: a "key" carrying escape sequences, and an
	// admin banning another admin (who could then never unban).
	evil := "SHA256:\x1b]0;PWNED\a\x1b[2J" + strings.Repeat("a", 30)
	if out, status := commandAs(t, addr, admin, "ban '"+evil+"'"); status != 1 || strings.Contains(out, "\x1b") || !strings.Contains(out, "not a key's fingerprint") {
		t.Errorf("a ban of an escape-laden key: status %d, %q", status, out)
	}
	if out, status := commandAs(t, addr, admin, "ban "+adminFP); status != 1 || !strings.Contains(out, "your own key") {
		t.Errorf("an admin banning their own key: status %d, %q", status, out)
	}
	if log, _ := commandAs(t, addr, admin, "moderation"); strings.Contains(log, "\x1b") {
		t.Errorf("`moderation` writes escape bytes:\n%q", log)
	}
}

func TestAnAdminCannotBanAnotherAdmin(t *testing.T) {
	admin, other := newKey(t), newKey(t)
	_, addr, _ := startWithAdmins(t, admin, other)
	if out, status := commandAs(t, addr, admin, "ban "+keys.Fingerprint(other.PublicKey())); status != 1 || !strings.Contains(out, "an admin's") {
		t.Errorf("banning another admin: status %d, %q", status, out)
	}
	if out, status := commandAs(t, addr, other, "bans"); status != 0 || !strings.Contains(out, "No key is banned") {
		t.Errorf("the other admin after it: status %d, %q", status, out)
	}
}

func TestAnAdminRenamesAPlayerAndRemovesAScoreWhichStaysKeptAndMarked(t *testing.T) {
	admin, rude := newKey(t), newKey(t)
	srv, addr, _ := startWithAdmins(t, admin)
	fp := keys.Fingerprint(rude.PublicKey())
	if err := srv.Store().ClaimName(fp, "Rude", srv.clock()); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.Store().FinishGame(fp, store.Score{Name: "Rude", Points: 1234, Depth: 3, Turns: 900, Cause: "killed by an orc",
		Date: srv.clock(), Game: &store.GameRecord{Seed: 1, Rules: "x", History: []byte{1}}}); err != nil {
		t.Fatal(err)
	}
	if out, status := commandAs(t, addr, admin, "rename rude bad-name!"); status != 2 || !strings.Contains(out, "not a name a player may have") {
		t.Errorf("a rename to an invalid name: status %d, %q", status, out)
	}
	if out, status := commandAs(t, addr, admin, "rename nobody Ann"); status != 1 || !strings.Contains(out, "no player is called nobody") {
		t.Errorf("renaming nobody: status %d, %q", status, out)
	}
	out, status := commandAs(t, addr, admin, "rename rude Ann offensive")
	if status != 0 || !strings.Contains(out, "renamed Rude to Ann") {
		t.Errorf("rename: status %d, %q", status, out)
	}
	if scores, _ := commandAs(t, addr, admin, "scores"); !strings.Contains(scores, "Ann") || strings.Contains(scores, "Rude") {
		t.Errorf("the table after the rename:\n%s", scores)
	}
	c := dial(t, addr, rude, 100, 30)
	waitText(t, c, "Ann") // the title greets the player by the new name
	newGame(t, c)
	// Renamed while playing: `who` and `kick` know the player by the new
	// name at once, not the old one another key may now take.
	if out, _ := commandAs(t, addr, admin, "rename ann Ada"); !strings.Contains(out, "renamed Ann to Ada") {
		t.Errorf("renaming a player in a game: %q", out)
	}
	if who, _ := commandAs(t, addr, admin, "who"); !strings.Contains(who, "Ada") || strings.Contains(who, "Ann") {
		t.Errorf("`who` after renaming a player in a game:\n%s", who)
	}
	if out, status := commandAs(t, addr, admin, "rename ada Ada"); status != 1 || !strings.Contains(out, "already called") {
		t.Errorf("a rename to the same name: status %d, %q", status, out)
	}
	c.Close()

	if out, status := commandAs(t, addr, admin, "remove-score 1 found a bug"); status != 0 || !strings.Contains(out, "removed game 1's score") {
		t.Errorf("remove-score: status %d, %q", status, out)
	}
	if scores, _ := commandAs(t, addr, admin, "scores"); strings.Contains(scores, "1234") {
		t.Errorf("the removed score is still on the table:\n%s", scores)
	}
	if list, _ := commandAs(t, addr, admin, "replays"); !strings.Contains(list, "1234") || !strings.Contains(list, "score removed by an admin") {
		t.Errorf("`replays` after the removal:\n%s", list)
	}
	if out, status := commandAs(t, addr, admin, "remove-score 1"); status != 1 || !strings.Contains(out, "no score on the tables") {
		t.Errorf("removing it again: status %d, %q", status, out)
	}
	if out, status := commandAs(t, addr, rude, "remove-score 1"); status == 0 || strings.Contains(out, "removed") {
		t.Errorf("a player's remove-score: status %d, %q", status, out)
	}
	log, _ := commandAs(t, addr, admin, "moderation")
	for _, want := range []string{"rename", "to Ada", "offensive", "remove-score", "game 1", "found a bug"} {
		if !strings.Contains(log, want) {
			t.Errorf("`moderation` lacks %q:\n%s", want, log)
		}
	}
}

// TestAnEventAfterARenameNamesThePlayerByTheNewName: the events feed
// credits a renamed player's milestones to the name `who` shows, not the
// old one someone else may now take (a community tester).
func TestAnEventAfterARenameNamesThePlayerByTheNewName(t *testing.T) {
	admin, rude := newKey(t), newKey(t)
	srv, addr, _ := startWithAdmins(t, admin)
	c := dial(t, addr, rude, 100, 30)
	newGame(t, c)
	old := listedName(t, srv)
	if out, status := commandAs(t, addr, admin, "rename "+old+" Ann"); status != 0 {
		t.Fatalf("rename: %q", out)
	}
	_, mine := srv.feed.hub.Follow(10)
	defer mine.Stop()
	lob := &sessionLobby{srv: srv, fp: keys.Fingerprint(rude.PublicKey())}
	lob.setShownName(old, false) // what the session itself still holds
	srv.milestones(lob)(session.Milestone{Kind: session.MilestoneDepth, Depth: 2})
	if e := <-mine.C(); e.Player != "Ann" {
		t.Errorf("the event after the rename names %q, want Ann", e.Player)
	}
}

// TestABanEndsTheBannedKeysEventsFollower: a key banned while it follows
// the events feed is cut off (a community tester's banned key went on
// reading every event).
func TestABanEndsTheBannedKeysEventsFollower(t *testing.T) {
	admin, bad := newKey(t), newKey(t)
	srv, addr, _ := startWithAdmins(t, admin)
	fp := keys.Fingerprint(bad.PublicKey())
	if err := srv.Store().ClaimName(fp, "Bad", srv.clock()); err != nil {
		t.Fatal(err)
	}
	follower, err := sshtest.Dial(addr, bad, sshtest.Options{NoPTY: true, Command: "events"})
	if err != nil {
		t.Fatal(err)
	}
	defer follower.Close()
	await.Until(t, waitLong, "the follower to follow", func() bool { return srv.feed.hub.Followers() == 1 })
	if out, status := commandAs(t, addr, admin, "ban Bad"); status != 0 {
		t.Fatalf("ban: %q", out)
	}
	select {
	case <-follower.Done():
	case <-time.After(waitLong):
		t.Fatal("the banned key still follows the events feed")
	}
	if out := string(follower.Output()); !strings.Contains(out, "banned") || follower.ExitStatus() != 1 {
		t.Errorf("the banned follower read %q, status %d", out, follower.ExitStatus())
	}
}

// TestAnAdminListsTheMutedKeysWithMutes: `mutes` lists the keys muted in
// the chat now, by name and key, with the reason; an unmuted key leaves the
// list; a player who is no admin is refused (a community tester could not
// tell whom they had muted).
func TestAnAdminListsTheMutedKeysWithMutes(t *testing.T) {
	admin, loud, player := newKey(t), newKey(t), newKey(t)
	_, addr, _ := startWithAdmins(t, admin)
	if out, status := commandAs(t, addr, admin, "mutes"); status != 0 || !strings.Contains(out, "No key is muted") {
		t.Errorf("`mutes` before any mute: status %d, %q", status, out)
	}
	loudFP := keys.Fingerprint(loud.PublicKey())
	if out, status := commandAs(t, addr, admin, "mute "+loudFP+" shouting in caps"); status != 0 {
		t.Fatalf("mute: status %d, %q", status, out)
	}
	out, status := commandAs(t, addr, admin, "mutes")
	if status != 0 || !strings.Contains(out, loudFP) || !strings.Contains(out, "shouting in caps") || !strings.Contains(out, store.ActMute) {
		t.Errorf("`mutes` after a mute: status %d,\n%s", status, out)
	}
	if bans, _ := commandAs(t, addr, admin, "bans"); strings.Contains(bans, loudFP) {
		t.Errorf("a muted key is listed by `bans`:\n%s", bans)
	}
	if help, _ := commandAs(t, addr, admin, "help"); !strings.Contains(help, "mutes") {
		t.Errorf("an admin's `help` does not name `mutes`:\n%s", help)
	}
	if out, status := commandAs(t, addr, player, "mutes"); status == 0 || strings.Contains(out, loudFP) {
		t.Errorf("a player's `mutes`: status %d, %q", status, out)
	}
	if out, status := commandAs(t, addr, admin, "unmute "+loudFP); status != 0 {
		t.Fatalf("unmute: status %d, %q", status, out)
	}
	if out, status := commandAs(t, addr, admin, "mutes"); status != 0 || strings.Contains(out, loudFP) || !strings.Contains(out, "No key is muted") {
		t.Errorf("`mutes` after the unmute: status %d, %q", status, out)
	}
}

// TestMutesAndBansNameTheKeyAsItIsNamedNow: a player muted and banned
// under one name and renamed since is listed under the name an admin
// types to lift them, with the old one beside it (a breaker: `mutes` kept
// the old name, which `unmute` no longer knew).
func TestMutesAndBansNameTheKeyAsItIsNamedNow(t *testing.T) {
	admin, loud := newKey(t), newKey(t)
	srv, addr, _ := startWithAdmins(t, admin)
	n := names.Add(1)
	old, now := fmt.Sprintf("loud%d", n), fmt.Sprintf("quiet%d", n)
	if err := srv.Store().ClaimName(keys.Fingerprint(loud.PublicKey()), old, srv.clock()); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"mute " + old + " shouting", "ban " + old + " spam", "rename " + old + " " + now} {
		if out, status := commandAs(t, addr, admin, cmd); status != 0 {
			t.Fatalf("%s: status %d, %q", cmd, status, out)
		}
	}
	for _, list := range []string{"mutes", "bans"} {
		if out, _ := commandAs(t, addr, admin, list); !strings.Contains(out, now+" (was "+old+")") {
			t.Errorf("`%s` after the rename does not name %s:\n%s", list, now, out)
		}
	}
	if out, status := commandAs(t, addr, admin, "unmute "+now); status != 0 {
		t.Errorf("unmute by the name `mutes` shows: status %d, %q", status, out)
	}
}
