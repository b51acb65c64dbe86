package server

// This file: the admins' moderation over `ssh host CMD` (rename,
// remove-score, restore-score, ban, unban, mute, unmute, bans, mutes,
// moderation): each act is
// done and recorded by the store (store.Moderation) in one transaction,
// with the admin's fingerprint, and logged ("moderation"). A ban made here
// is kept in the store, so it holds on every node and across restarts,
// beside the banned-keys file (bans.go).

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"charm.land/ssh"

	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/keys"
	"github.com/grotto-game/grotto/server/finished"
	"github.com/grotto-game/grotto/store"
)

// reasonOf is the reason typed after a command's arguments: the words
// joined by spaces, made inert (tui.Inert) and cut to store.MaxActDetail
// bytes on a rune boundary.
func reasonOf(words []string) string {
	r := strings.TrimSpace(tui.Inert(strings.Join(words, " ")))
	for len(r) > store.MaxActDetail {
		_, size := utf8.DecodeLastRuneInString(r)
		r = r[:len(r)-size]
	}
	return r
}

// keyOf returns the key named by who: a fingerprint ("SHA256:…", as the
// log and `moderation` show them, checked for form: keys.ValidFingerprint)
// or a player's name, without regard to case. It writes why not to errOut and returns "" when there is none.
func (s *Server) keyOf(who string, errOut io.Writer) string {
	if strings.HasPrefix(who, "SHA256:") {
		if !keys.ValidFingerprint(who) {
			fmt.Fprintf(errOut, "grotto: %s is not a key's fingerprint (SHA256: and 43 characters, as `moderation` and the log show them); nothing was done\n", finished.Echoed(who))
			return ""
		}
		return who
	}
	fp, err := s.store.NameHolder(who)
	switch {
	case err != nil:
		s.log.Error("moderation: name lookup", "name", tui.Inert(who), "err", err)
		fmt.Fprintln(errOut, "grotto: the database cannot be read right now; nothing was done")
	case fp == "":
		fmt.Fprintf(errOut, "grotto: no player is called %s; nothing was done\n", tui.Inert(who))
	}
	return fp
}

// moderate does act for the admin of sess and records it; it writes what
// went wrong to errOut (and returns false) in words, never the store's.
func (s *Server) moderate(sess ssh.Session, act store.Act, errOut io.Writer) (store.Act, bool) {
	act.Admin, act.When = s.adminOf(sess), s.clock()
	done, err := s.store.Moderate(act)
	switch {
	case err == nil:
		s.scoreChanges.Add(1) // a score removed or restored, a name changed: the titles read the table again
		s.log.Info("moderation", "admin", done.Admin, "action", done.Action, "fp", done.Fingerprint, "name", done.Name,
			"new_name", done.NewName, "game", done.GameID, "reason", done.Detail, "seq", done.Seq)
		return done, true
	case errors.Is(err, store.ErrNameTaken):
		fmt.Fprintf(errOut, "grotto: another player is called %s; nothing was done\n", tui.Inert(act.NewName))
	case errors.Is(err, store.ErrNotFound):
		fmt.Fprintln(errOut, "grotto: that key has no player here; nothing was done")
	case errors.Is(err, store.ErrNoScore) && act.Action == store.ActRemoveScore:
		fmt.Fprintf(errOut, "grotto: game %d has no score on the tables (not kept, cheated, or removed already); nothing was done\n", act.GameID)
	case errors.Is(err, store.ErrNoScore):
		fmt.Fprintf(errOut, "grotto: game %d's score was not removed; nothing was done\n", act.GameID)
	case errors.Is(err, store.ErrNotMuted):
		fmt.Fprintln(errOut, "grotto: that key is not muted; nothing was done")
	case errors.Is(err, store.ErrNotBanned):
		fmt.Fprintln(errOut, "grotto: that key is not banned (a key in the banned-keys file is lifted by editing the file); nothing was done")
	default:
		s.log.Error("moderation", "action", act.Action, "fp", act.Fingerprint, "err", err)
		fmt.Fprintln(errOut, "grotto: the database cannot be written right now; nothing was done")
	}
	return store.Act{}, false
}

// rename runs `rename NAME NEWNAME [REASON…]`: the player's name becomes
// NEWNAME on their profile, their scores and their finished games, and
// their live game here is listed under it.
func (s *Server) rename(sess ssh.Session, out, errOut io.Writer, args []string) int {
	name := args[1]
	if !tui.ValidName(name) {
		fmt.Fprintf(errOut, "grotto: %s is not a name a player may have (1–16 letters, digits, - and _); nothing was done\n", tui.Inert(name))
		return 2
	}
	fp := s.keyOf(args[0], errOut)
	if fp == "" {
		return 1
	}
	if p, err := s.store.Profile(fp); err == nil && p.Name == name {
		fmt.Fprintf(errOut, "grotto: that player is already called %s; nothing was done\n", tui.Inert(name))
		return 1
	}
	done, ok := s.moderate(sess, store.Act{Action: store.ActRename, Fingerprint: fp, NewName: name, Detail: reasonOf(args[2:])}, errOut)
	if !ok {
		return 1
	}
	// `who`, `kick` and watchers list the live game under the new name
	// at once (on this node; another node's listing follows at its next
	// announcement or the player's next session).
	s.place.live.RenameKey(fp, done.NewName)
	fmt.Fprintf(out, "renamed %s to %s (key %s), on the scores and finished games too\n",
		tui.Inert(done.Name), tui.Inert(done.NewName), done.Fingerprint)
	return 0
}

// moveScore runs `remove-score ID [REASON…]` or `restore-score ID
// [REASON…]` (action store.ActRemoveScore or ActRestoreScore).
func (s *Server) moveScore(sess ssh.Session, out, errOut io.Writer, action string, args []string) int {
	id, err := strconv.ParseUint(args[0], 10, 64)
	if err != nil || id == 0 {
		fmt.Fprintf(errOut, "grotto: %s is not a game's ID (`replays` lists them); nothing was done\n", tui.Inert(args[0]))
		return 2
	}
	done, ok := s.moderate(sess, store.Act{Action: action, GameID: id, Detail: reasonOf(args[1:])}, errOut)
	if !ok {
		return 1
	}
	if action == store.ActRemoveScore {
		fmt.Fprintf(out, "removed game %d's score (%s) from the tables; the game stays kept, marked removed\n", id, tui.Inert(done.Name))
	} else {
		fmt.Fprintf(out, "put game %d's score (%s) back on its table\n", id, tui.Inert(done.Name))
	}
	return 0
}

// banKey runs `ban NAME|KEY [REASON…]`: the key is banned in the store (on
// every node, across restarts) and its sessions end, their games saved.
// Its name stays held by the banned key.
func (s *Server) banKey(sess ssh.Session, out, errOut io.Writer, args []string) int {
	fp := s.keyOf(args[0], errOut)
	if fp == "" {
		return 1
	}
	if fp == s.adminOf(sess) {
		fmt.Fprintln(errOut, "grotto: that is your own key; nothing was done")
		return 1
	}
	if s.policy.admins.Load().Contains(fp) {
		// A ban would shut an admin out of `unban` for good.
		fmt.Fprintln(errOut, "grotto: that key is an admin's (--admin-keys); take it out of the admin file first (then SIGHUP); nothing was done")
		return 1
	}
	done, ok := s.moderate(sess, store.Act{Action: store.ActBan, Fingerprint: fp, Detail: reasonOf(args[1:])}, errOut)
	if !ok {
		return 1
	}
	if done.Name != "" {
		fmt.Fprintf(out, "banned %s (key %s); the name stays held by that key. A ban stops this key, not a person with a new one.\n", tui.Inert(done.Name), fp)
	} else {
		fmt.Fprintf(out, "banned a key with no player (key %s). A ban stops this key, not a person with a new one.\n", fp)
	}
	if n := s.place.live.Ban(func(k string) bool { return k == fp }); n > 0 {
		fmt.Fprintf(out, "ended %s of that key here (a game in play is saved)\n", count(n, "session"))
	} else if _, elsewhere := s.place.nodes.named(done.Name); elsewhere && done.Name != "" {
		// Playing on another node: it saves and leaves as a kick does;
		// its next login on any node is refused.
		s.kickElsewhere(sess, out, errOut, done.Name)
	}
	return 0
}

// unbanKey runs `unban NAME|KEY [REASON…]`.
func (s *Server) unbanKey(sess ssh.Session, out, errOut io.Writer, args []string) int {
	fp := s.keyOf(args[0], errOut)
	if fp == "" {
		return 1
	}
	done, ok := s.moderate(sess, store.Act{Action: store.ActUnban, Fingerprint: fp, Detail: reasonOf(args[1:])}, errOut)
	if !ok {
		return 1
	}
	who := "a key with no player"
	if done.Name != "" {
		who = tui.Inert(done.Name)
	}
	fmt.Fprintf(out, "lifted the ban of %s (key %s)\n", who, fp)
	if b := s.policy.banned.Load(); b != nil && b.Contains(fp) {
		fmt.Fprintln(out, "the banned-keys file still bans this key: take it out of the file (then SIGHUP) to let it in")
	}
	return 0
}

// muteKey runs `mute NAME|KEY [REASON…]` or `unmute NAME|KEY [REASON…]`
// (action store.ActMute or ActUnmute): the key is muted in every game's
// chat (kept in the store: every node, across restarts; server/chat.go
// reads it for each line the chat's bounds allow), or no longer.
func (s *Server) muteKey(sess ssh.Session, out, errOut io.Writer, action string, args []string) int {
	fp := s.keyOf(args[0], errOut)
	if fp == "" {
		return 1
	}
	done, ok := s.moderate(sess, store.Act{Action: action, Fingerprint: fp, Detail: reasonOf(args[1:])}, errOut)
	if !ok {
		return 1
	}
	who := "a key with no player"
	if done.Name != "" {
		who = tui.Inert(done.Name)
	}
	if action == store.ActMute {
		fmt.Fprintf(out, "muted %s (key %s) in the chat of every game\n", who, fp)
	} else {
		fmt.Fprintf(out, "lifted the mute of %s (key %s)\n", who, fp)
	}
	return 0
}

// storeBan reports whether the store has banned fp (store.Moderation). A
// store that cannot answer lets the key in (logged): an outage must not
// turn every login away, and the login reads the store next anyway.
func (s *Server) storeBan(fp string) bool {
	_, banned, err := s.store.Banned(fp)
	if err != nil {
		s.log.Warn("could not read whether a key is banned; let in", "fp", fp, "err", err)
	}
	return banned
}
