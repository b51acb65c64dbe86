// Records every store hands out: quarantined saves and journals, and the
// counts of a dump.

package store

import (
	"fmt"
	"time"
)

// QuarantineRecord is a save and journal set aside because they could not
// be read, with why and when: the bytes as they were stored, each record
// its version byte then its body (Save is nil when there was no save). It
// is also the quarantine bucket's on-disk form (JSON), and what
// bolt.Store.Dump hands out for copying.
type QuarantineRecord struct {
	Fingerprint string    `json:"fp"`
	Reason      string    `json:"reason"`
	When        time.Time `json:"when"`
	Save        []byte    `json:"save"`
	Journal     [][]byte  `json:"journal"`
	// FinishedID and Finished are a finished game set aside
	// (Replays.QuarantineFinished): its id and its record as the bbolt
	// file stores it (its version byte, then the body; on PostgreSQL, a
	// row that could not be read is kept as row_to_json's text); absent
	// for a save.
	FinishedID uint64 `json:"finished_id,omitempty"`
	Finished   []byte `json:"finished,omitempty"`
}

// Counts says how many of each kind of record a store holds, to check a
// copy.
type Counts struct {
	Players        int  // profiles
	Names          int  // names held
	Saves          int  // games in progress
	JournalEntries int  // journal entries, all players together
	Scores         int  // finished games on the table
	Quarantined    int  // games set aside as damaged
	Finished       int  // finished games kept whole (Replays)
	DailyScores    int  // scores on the daily boards, every day together (Dailies)
	DailyAttempts  int  // daily challenges started, every day and key together
	DailySecret    bool // the store has made its daily secret
	Acts           int  // moderation acts (store.Moderation), every one ever done
}

// String says n for a host to read: "6 players, 6 names, …, the daily
// secret".
func (n Counts) String() string {
	secret := "no daily secret"
	if n.DailySecret {
		secret = "the daily secret"
	}
	return fmt.Sprintf("%d players, %d names, %d saves, %d journal entries, %d scores, %d finished games, %d quarantined, "+
		"%d daily scores, %d daily attempts, %d moderation acts, %s",
		n.Players, n.Names, n.Saves, n.JournalEntries, n.Scores, n.Finished, n.Quarantined, n.DailyScores, n.DailyAttempts, n.Acts, secret)
}

// Dumper receives everything a store holds, one record at a time. Byte
// slices are only valid during the call: copy what you keep. An error
// stops the dump and is returned by it.
type Dumper interface {
	// Profile is one player's profile.
	Profile(p Profile) error
	// Name says that the name whose lower-case form is key is held by fp.
	Name(key, fp string) error
	// Save is fp's saved game as stored: its record version byte, then
	// the blob.
	Save(fp string, rec []byte) error
	// JournalEntry is entry seq of fp's journal as stored: its record
	// version byte, then the entry. A player's entries come in order, 0
	// first.
	JournalEntry(fp string, seq uint64, rec []byte) error
	// Score is one finished game; scores come best first, and seq (from 1)
	// is the order they were recorded in, which breaks ties.
	Score(seq uint64, s Score) error
	// Quarantined is one game set aside, under its key.
	Quarantined(key string, q QuarantineRecord) error
	// Finished is one finished game kept whole, with its id; they come
	// oldest first.
	Finished(f Finished) error
	// DailySecret is the store's secret for the daily seeds (see
	// [Dailies.DailySecret]), handed before any other record; a store
	// that never made one hands none.
	DailySecret(secret []byte) error
	// DailyScore is one score on the board of the daily of s.Daily,
	// handed after every Score: day by day (oldest first), each day's
	// best first, and seq (from 1, over every day) is the order they were
	// recorded in, which breaks ties.
	DailyScore(seq uint64, s Score) error
	// DailyAttempt says that fp started the daily of date ("2006-01-02")
	// at started (see [Dailies.StartDaily]).
	DailyAttempt(date, fp string, started time.Time) error
	// Act is one moderation act (see [Moderation]), with its Seq; they
	// come oldest first, after every other record, so that applying each
	// in turn leaves the bans and removed scores the source holds.
	Act(a Act) error
}
