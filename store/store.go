// Package store is what grotto persists and the roles that persist it:
// players, saved games and their journals, high scores, finished games,
// leases and the cluster, as small interfaces ([Store] and its roles), the
// records they hand out, and the errors every implementation returns.
// store/bolt implements it in one bbolt file, store/postgres on
// PostgreSQL for many nodes; store/storetest is the contract both pass.
//
// The store knows nothing of a game beyond an opaque, versioned blob.
package store

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrNotFound is returned by [Store.Profile] and [Store.Save] when the
// fingerprint has no profile or no save.
var ErrNotFound = errors.New("not found")

// ErrCorrupt is returned (wrapped, with the bucket and key) when a stored
// record cannot be decoded: an unknown record version, or a body that does
// not parse. The record is left in place.
var ErrCorrupt = errors.New("corrupt record")

// ErrUnavailable is returned (wrapped, with the call and the cause) by a
// store call that could not reach its database: the connection was
// refused, reset or closed, the server is shutting down or starting up, or
// no answer came in time. Nothing is wrong with the data, and the same call
// may succeed once the database is back; but a write that returns it may
// or may not have been committed (the answer was lost), so a caller that
// retries must write something idempotent: a full save, or the same
// journal entry again. The bbolt file never returns it.
var ErrUnavailable = errors.New("database unavailable")

// ErrNotCommitted is wrapped, beside [ErrUnavailable], by a write's error
// when the store knows the write did not commit: it failed before its
// commit was sent (a connection that could not be had, a lock waited for
// past the store's lock wait), so the store is as it was before the call.
// Without it, an ErrUnavailable write may have committed. A write error
// without ErrUnavailable (bbolt's, a refused statement) never committed.
var ErrNotCommitted = errors.New("not committed")

// MayHaveCommitted reports whether a write that failed with err may have
// committed all the same: when err wraps [ErrUnavailable] without
// [ErrNotCommitted] (its answer may have been lost). Any other error is
// a write that did not happen.
func MayHaveCommitted(err error) bool {
	return errors.Is(err, ErrUnavailable) && !errors.Is(err, ErrNotCommitted)
}

// Profile is what grotto remembers about a player between games.
type Profile struct {
	// Fingerprint is the player's identity: the SHA256 fingerprint of their
	// SSH key, as keys.Fingerprint returns it. It is the profile's key.
	Fingerprint string
	// Name is the name the player chose to be shown under.
	Name string
	// Created is when the player first connected; LastSeen when they last did.
	Created, LastSeen time.Time
	// Settings are the options the player chose on the settings screen;
	// the zero value means the defaults (a profile stored before settings
	// existed reads so).
	Settings Settings
}

// Settings are a player's display options, kept verbatim as the UI names
// them (game/tui's Settings): the store does not interpret them, and ""
// means the UI's default.
type Settings struct {
	// Symbols is the glyph set: "unicode" or "ascii".
	Symbols string
	// Colour is the colour depth: "auto", "16", "256", "truecolor" or "none".
	Colour string
	// Chat is whether the play screen shows the game's chat: "on" or
	// "off".
	Chat string
}

// Score is one finished game on the high-score table.
type Score struct {
	// Name is the player's name at the time of the game.
	Name string
	// Fingerprint identifies the player (see [Profile.Fingerprint]).
	Fingerprint string
	// Depth is the deepest level reached, 1 for the first.
	Depth int
	// Turns is the number of game turns played.
	Turns int
	// Kills is the number of monsters killed.
	Kills int
	// Points ranks the score, higher first; it must be ≥ 0.
	Points int
	// Cause says how the game ended, e.g. "killed by a kobold on level 3".
	Cause string
	// Date is when the game ended; among equal Points the earlier Date ranks
	// first. It must lie between 1970 and 2262 (Unix nanoseconds fit an int64).
	Date time.Time
	// Cheated marks a game in which cheats were used: FinishGame keeps it
	// (Game) but never ranks it (rank 0; TopScores leaves it out).
	Cheated bool
	// Game, when not nil, is the finished game kept whole for replays and
	// dumps, which FinishGame records in the same transaction as the
	// score. Not set on what TopScores returns.
	Game *GameRecord
	// GameID is the id of the game kept whole (Finished.ID) for a score
	// that TopScores or DailyScores returns, 0 when none is kept: a score
	// recorded before games were kept, or whose game was set aside as
	// damaged (QuarantineFinished), so that no replay is offered that
	// would then be refused. Ignored by FinishGame.
	GameID uint64
	// Daily is the UTC date ("2006-01-02") of the daily challenge this
	// game was, "" for a game of its own: FinishGame ranks a daily score
	// on that day's board (DailyScores), never on the main one.
	Daily string
	// Removed marks a score an admin took off the tables
	// (Moderation, ActRemoveScore): TopScores and DailyScores leave it
	// out; FinishedGame and FinishedGames set it. Ignored by FinishGame.
	Removed bool
}

// GameRecord is what a finished game needs beyond its Score to be replayed
// and told (game/replay): opaque to the store but for its size.
type GameRecord struct {
	Won     bool   // the player escaped (else died)
	Seed    uint64 // the game's seed
	Rules   string // the rules it was played under (game.Rules)
	Hash    string // a hash of its final state (game.StateHash)
	History []byte // every command since turn 0, compressed (game.HistoryBlob)
	Dump    string // the plain-text account of its end (replay.Dump)
}

// Finished is one finished game kept whole: its score and its record,
// under a short id.
type Finished struct {
	// ID is the game's id: 1 for the first game kept, then one more for
	// each (copy-store keeps them). `ssh host dump ID` names a game by it.
	ID uint64
	// Score is the game's score (Score.Game nil, Score.GameID = ID);
	// Score.Cheated games are kept but not ranked.
	Score Score
	// Record is the game's seed, rules, history, hash and dump; the
	// History and Dump are left empty by FinishedGames.
	Record GameRecord
}

// UnreadableFinished is returned by [Replays.FinishedGames], with the
// games it could read, naming the records it could not decode (to be
// quarantined, QuarantineFinished). It wraps ErrCorrupt.
type UnreadableFinished struct {
	IDs   []uint64 // the finished games' ids, newest first
	Cause error    // the first record's decoding error
}

func (e *UnreadableFinished) Error() string {
	return fmt.Sprintf("%d finished games cannot be read (%v)", len(e.IDs), e.Cause)
}

// Unwrap returns ErrCorrupt and the first record's error.
func (e *UnreadableFinished) Unwrap() []error { return []error{ErrCorrupt, e.Cause} }

// MaxFinishedGames is the most FinishedGames returns.
const MaxFinishedGames = 1000

// Replays reads the finished games kept whole (Score.Game): the list, and
// one game by id.
type Replays interface {
	// FinishedGame returns the finished game with id, whole, or
	// ErrNotFound; an error wrapping ErrCorrupt if it cannot be decoded.
	FinishedGame(id uint64) (Finished, error)
	// FinishedGames returns up to n (at most MaxFinishedGames) finished
	// games, newest first (highest id), of the player named name
	// (case-insensitively; every player when name is ""), without their
	// History and Dump. A record that cannot be decoded is left out and
	// named, with the rest returned, by an *UnreadableFinished error (one
	// damaged record does not hide every other).
	FinishedGames(name string, n int) ([]Finished, error)
	// KeyGames returns every finished game of the key fp, oldest first,
	// for a player page: each game's Score (Name left "", Removed set)
	// and Record.Won, without the rest of its Record. It reads an index
	// of the key's games, never the whole list of games.
	KeyGames(fp string) ([]Finished, error)
	// QuarantineFinished moves finished game id aside, as stored, with a
	// reason (its history is damaged): it is no longer listed nor read,
	// and the host still has its bytes. It returns the quarantine key,
	// fp@when/finished/ID, or ErrNotFound.
	QuarantineFinished(id uint64, reason string, now time.Time) (key string, err error)
}

// ErrDailyTaken is returned by [Dailies.StartDaily] when the key has
// already started that day's daily challenge.
var ErrDailyTaken = errors.New("the daily challenge was already attempted")

// Dailies keeps the daily challenge: each key's one attempt a
// day, and each day's board. The scores themselves are recorded by
// FinishGame (Score.Daily).
type Dailies interface {
	// StartDaily records fp's attempt at the daily of date ("2006-01-02")
	// at now, atomically: of two calls for one fp and date, on one node or
	// two, one returns nil and the other ErrDailyTaken. A call whose answer
	// was lost (ErrUnavailable) may have recorded the attempt.
	StartDaily(fp, date string, now time.Time) error
	// DailyScores returns up to n scores of the daily of date, best first,
	// as TopScores ranks them.
	DailyScores(date string, n int) ([]Score, error)
	// DailySecret returns this store's secret for the daily seeds
	// (game.DailySeed): DailySecretBytes random bytes, made once, on the
	// first call, atomically (of two first calls on two nodes, both get
	// the one kept), and the same ever after. Nobody without the store
	// can compute a day's dungeon ahead.
	DailySecret() ([]byte, error)
}

// DailySecretBytes is the length of [Dailies.DailySecret]'s secret.
const DailySecretBytes = 32

// DailyLayout is how a daily's date is written: the UTC day, "2006-01-02"
// (the game core takes it as a string and never reads a clock).
const DailyLayout = time.DateOnly

// ValidDaily reports whether date is a daily's date as the store keeps it:
// a real day written "2006-01-02".
func ValidDaily(date string) bool {
	d, err := time.Parse(DailyLayout, date)
	return err == nil && d.Format(DailyLayout) == date
}

// Saves keeps each player's game in progress: a snapshot (the save) and the
// journal of commands applied since it. It is the durability role the
// session layer uses.
type Saves interface {
	// Save returns fp's saved game blob, or ErrNotFound.
	Save(fp string) ([]byte, error)
	// PutSave creates or replaces fp's saved game blob: a snapshot, so it
	// also drops fp's journal.
	PutSave(fp string, blob []byte) error
	// DeleteSave deletes fp's saved game and journal; deleting an absent
	// save is no error.
	DeleteSave(fp string) error
	// AppendJournal makes entry seq of fp's journal (the commands applied
	// since the save) durable; concurrent callers share a commit.
	AppendJournal(fp string, seq uint64, entry []byte) error
	// Journal returns fp's journal entries in order.
	Journal(fp string) ([][]byte, error)
}

// Scores ends games for good and ranks them.
type Scores interface {
	// FinishGame ends fp's game for good (permadeath): in one transaction it
	// deletes fp's save and records s, with s.Fingerprint set to fp, and
	// s.Game (when not nil) as a finished game kept whole (Replays). It
	// returns s's 1-based rank on the table (on the day's board for a
	// s.Daily score), 0 for a Cheated score (kept, never ranked).
	FinishGame(fp string, s Score) (rank int, err error)
	// TopScores returns up to n scores, best first; ties rank in the order
	// they were recorded. Daily scores are not on it (Dailies).
	TopScores(n int) ([]Score, error)
}

// Profiles keeps who players are: their profile and the name they claimed.
type Profiles interface {
	// Profile returns the profile of fp, or ErrNotFound.
	Profile(fp string) (Profile, error)
	// PutProfile creates or replaces the profile keyed by p.Fingerprint.
	PutProfile(p Profile) error
	// ClaimName gives a name to fp, unique case-insensitively (ErrNameTaken),
	// creating fp's profile if needed and releasing fp's old name.
	ClaimName(fp, name string, now time.Time) error
	// NameHolder returns the fingerprint holding name, or "" if it is free.
	NameHolder(name string) (string, error)
}

// Quarantine sets damaged games aside, never dropping their bytes, and lets
// hosts list them.
type Quarantine interface {
	// Quarantine moves fp's unreadable save and journal aside with a
	// reason, in one step, and returns the quarantine record's key.
	Quarantine(fp, reason string, now time.Time) (key string, err error)
	// Quarantined returns every quarantined record, oldest first within a
	// fingerprint (all fingerprints when fp is "").
	Quarantined(fp string) ([]Quarantined, error)
}

// Quarantined is one game set aside as damaged: whose, why, when, and how
// many bytes of save and journal entries were kept.
type Quarantined struct {
	Key, Fingerprint, Reason string
	When                     time.Time
	SaveBytes                int    // bytes of the save record kept
	JournalEntries           int    // journal entries kept
	FinishedID               uint64 // the finished game set aside (Replays.QuarantineFinished), 0 for a save
}

// Store is grotto's persistence, by role: saves and journal, scores and
// the finished games kept whole, profiles and names, quarantine. Every player is keyed by fingerprint
// (see [Profile.Fingerprint]). Implementations are safe for concurrent use
// and pass the contract suite in store/storetest.
type Store interface {
	Saves
	Scores
	Profiles
	Quarantine
	Replays
	Dailies
	// Close releases the store; it must not be used afterwards.
	Close() error
}

// A key's saves are kept in slots: its game of its own under its
// fingerprint, and the daily challenge beside it under SlotKey(fp,
// DailySlot), so that starting the daily never throws away the other.
// Saves, journals and FinishGame take a slot's key where they
// take fp; the lease, the score's Fingerprint and the profile stay the
// key's own (KeyOwner): a key plays one game at a time, either one.
const DailySlot = "daily"

// SlotKey returns the key fp's save in slot is kept under: fp for slot ""
// (the game of its own, where every save was kept before slots), else
// fp + "#" + slot ('#' is never in a fingerprint, "SHA256:…" in base64).
func SlotKey(fp, slot string) string {
	if slot == "" {
		return fp
	}
	return fp + "#" + slot
}

// KeyOwner returns the fingerprint a save's key (SlotKey) belongs to.
func KeyOwner(key string) string {
	if i := strings.IndexByte(key, '#'); i >= 0 {
		return key[:i]
	}
	return key
}

// ErrNameTaken is returned by ClaimName when another key holds the name.
var ErrNameTaken = errors.New("name taken")

// ErrFileGone is returned (wrapped, with the path) by every write when the
// database file the store opened is no longer at its path: deleted, moved
// or replaced while the server runs. The write reached only the orphaned
// file and will be lost when the store closes, so it must not count as
// saved. A host restores the file (or its data directory) from a backup.
var ErrFileGone = errors.New("database file was deleted or replaced while in use")

// ErrNoRoom is returned (wrapped, with the system's error) by a write that
// found no room: the disk is full (ENOSPC) or the process's file-size limit
// was reached (EFBIG, as under `prlimit --fsize`). Nothing was written; a
// later write may succeed once there is room.
var ErrNoRoom = errors.New("no room to write the database")
