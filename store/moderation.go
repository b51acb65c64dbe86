package store

// This file: moderation, what admins do about players (`ssh host rename`,
// `remove-score`, `ban`, `unban`, `mute`, `unmute`): each act is recorded for good, with the
// admin's fingerprint, in the same transaction as what it changes.

import (
	"errors"
	"time"
)

// Moderation acts, as Act.Action names them.
const (
	// ActRename gave a player a new name: their profile, the name they
	// hold, and the name on their scores and finished games.
	ActRename = "rename"
	// ActRemoveScore took a finished game's score off the tables (the
	// main one or its day's board); the game and its score stay kept,
	// marked (Score.Removed).
	ActRemoveScore = "remove-score"
	// ActRestoreScore put a removed score back on its table.
	ActRestoreScore = "restore-score"
	// ActBan banned a key; its name stays held by it, so no other key can
	// take the name.
	ActBan = "ban"
	// ActUnban lifted a key's ban.
	ActUnban = "unban"
	// ActMute muted a key in every game's chat (issue 25): it may still
	// play and watch, and read the chat.
	ActMute = "mute"
	// ActUnmute lifted a key's mute.
	ActUnmute = "unmute"
)

// MaxActDetail is the longest Act.Detail a store keeps, in bytes (a reason
// typed by an admin); the caller trims it.
const MaxActDetail = 500

// Act is one moderation act: who did what to whom, when and why.
type Act struct {
	// Seq numbers the acts in the order they were recorded, from 1; the
	// store gives it (Moderate ignores the caller's).
	Seq uint64
	// When the act was done.
	When time.Time
	// Admin is the fingerprint of the admin's key.
	Admin string
	// Action is what was done: one of the Act* constants.
	Action string
	// Fingerprint is the key of the player acted on.
	Fingerprint string
	// Name is the player's name when the act was done (for a rename, the
	// name before it).
	Name string
	// NewName is the name a rename gave; "" for other acts.
	NewName string
	// GameID is the finished game whose score a remove-score or
	// restore-score moved; 0 for other acts.
	GameID uint64
	// Detail is the admin's reason, as typed (at most MaxActDetail bytes).
	Detail string
}

// ErrNoScore is returned by Moderate for a remove-score or restore-score
// of a game that is not kept, has no score on a table (a cheated game), or
// is already in the state asked for (removed, or on its table).
var ErrNoScore = errors.New("no such score on the tables")

// ErrNotBanned is returned by Moderate for an unban of a key that is not
// banned.
var ErrNotBanned = errors.New("the key is not banned")

// ErrNotMuted is returned by Moderate for an unmute of a key that is not
// muted.
var ErrNotMuted = errors.New("the key is not muted")

// Moderation keeps the admins' acts and what they change. Every act is
// recorded in the same transaction as its change, and never deleted.
type Moderation interface {
	// Moderate applies act and records it, in one transaction, and
	// returns it as recorded (Seq given, Name filled from the player's
	// profile). What it changes, by act.Action:
	//   - ActRename: act.Fingerprint's name becomes act.NewName (unique
	//     case-insensitively: ErrNameTaken), as ClaimName does, and the
	//     name on every score and finished game of the key; a key with
	//     no profile is ErrNotFound.
	//   - ActRemoveScore, ActRestoreScore: finished game act.GameID's
	//     score leaves its table (or comes back); ErrNoScore when there
	//     is none to move. act.Fingerprint is filled from the game.
	//   - ActBan: act.Fingerprint is banned (Banned); banning a banned key
	//     records the act again with the new reason.
	//   - ActUnban: the ban is lifted; ErrNotBanned when there is none.
	//   - ActMute, ActUnmute: as ActBan and ActUnban, for the chat
	//     (Muted; ErrNotMuted).
	Moderate(act Act) (Act, error)
	// Muted returns the act that muted fp in the chat, and whether fp is
	// muted.
	Muted(fp string) (Act, bool, error)
	// Banned returns the act that banned fp, and whether fp is banned.
	Banned(fp string) (Act, bool, error)
	// Bans returns the acts of every key banned now, oldest first.
	Bans() ([]Act, error)
	// Mutes returns the acts of every key muted in the chat now, oldest
	// first.
	Mutes() ([]Act, error)
	// ModerationLog returns up to n acts, newest first (n ≤ 0: none).
	ModerationLog(n int) ([]Act, error)
}
