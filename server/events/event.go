// Package events is grotto's live events feed: the milestones of every
// game as they happen (a game begun, a new depth, a level-up, a notable
// kill, a death, a victory, a daily's result), one JSON line each
// (docs/events.md), kept in a ring of the last few and handed to
// followers (`ssh host events`, the web front page), to an outgoing
// webhook and, on a cluster, to the other nodes.
//
// Files: event.go (Event, its line and its version), hub.go (Hub: the
// ring and the followers, which never hold up a game), webhook.go
// (Webhook: a bounded queue posting each event in order, with retries).
package events

import (
	"encoding/json"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"
)

// Version is the version of the line format (Event's field "v"): it goes
// up when a field changes meaning or goes away. A new field or a new Kind
// does not change it: readers ignore what they do not know.
const Version = 1

// Kind is what an event tells.
type Kind string

// The kinds of event.
const (
	KindStart   Kind = "start"   // a game was begun (a new game or a daily)
	KindDepth   Kind = "depth"   // the player reached a depth new to this game
	KindLevel   Kind = "level"   // the player chose a level-up: Level is the new character level
	KindKill    Kind = "kill"    // the player killed a notable monster (monsters.json "notable"): Monster
	KindDeath   Kind = "death"   // the player died: Cause, Score, Rank
	KindVictory Kind = "victory" // the player left the grotto alive: Score, Rank
	KindDaily   Kind = "daily"   // a daily challenge ended, won or not (instead of death or victory): its result
)

// Event is one milestone of one game, as its JSON line carries it. Fields
// a kind does not use are left out of the line.
type Event struct {
	V    int       `json:"v"`    // Version
	ID   string    `json:"id"`   // unique across nodes and restarts: a receiver dedupes by it
	Time time.Time `json:"time"` // when the turn happened, UTC (RFC 3339 with nanoseconds)
	Node string    `json:"node"` // the node the game is played on (--node)
	Kind Kind      `json:"kind"`
	// Player is the name the player is shown under ("" for a key that
	// has chosen none yet).
	Player  string `json:"player"`
	Daily   string `json:"daily,omitempty"` // the daily's date (2006-01-02, UTC) when the game is a daily
	Depth   int    `json:"depth"`           // the player's depth after the turn, 1 and up
	Turn    int    `json:"turn"`            // the game's turn count after the turn
	Level   int    `json:"level,omitempty"` // the character level reached (KindLevel)
	Monster string `json:"monster,omitempty"`
	Cause   string `json:"cause,omitempty"` // how the game ended (KindDeath, KindDaily), as the score table says it
	Won     bool   `json:"won,omitempty"`   // the game ended in victory (KindVictory, KindDaily)
	Score   int    `json:"score,omitempty"` // points of a game that ended
	// Rank is the finished game's rank on the score table, 1 the best; 0
	// when it is not on it (cheats, or its end could not be recorded).
	Rank int `json:"rank,omitempty"`
	// Cheated marks an event of a game in which cheats were used (an
	// admin's cheat menu): such a game is never on the score table, and a
	// feed should not celebrate it. Absent otherwise.
	Cheated bool `json:"cheated,omitempty"`
}

// IDs makes event IDs that no other node or run of this one makes: a
// random prefix drawn at start, then a count. Safe for concurrent use.
type IDs struct {
	prefix string
	n      atomic.Uint64
}

// NewIDs returns IDs with prefix, which should be random (from
// crypto/rand) and at least 8 bytes' worth so that two runs never share
// one; the IDs are prefix-1, prefix-2, ...
func NewIDs(prefix string) *IDs { return &IDs{prefix: prefix} }

// Next returns a new ID.
func (ids *IDs) Next() string { return ids.prefix + "-" + strconv.FormatUint(ids.n.Add(1), 10) }

// MaxLine is the longest line, in bytes, Line makes or Parse accepts:
// names and causes are short, so a longer one is damaged or hostile.
const MaxLine = 4 << 10

// Line returns e as one JSON line, its newline at the end. It is safe to
// write to a terminal: JSON escapes every control character, and Line
// escapes the other runes that are not printable (C1 controls, format
// characters) too, so no name can move a cursor or change a colour.
func (e Event) Line() []byte {
	b, err := json.Marshal(e)
	if err != nil { // strings, numbers, a time: cannot happen
		b = []byte(fmt.Sprintf(`{"v":%d,"id":%q,"kind":"error"}`, Version, e.ID))
	}
	return append(inert(b), '\n')
}

// inert replaces every non-ASCII rune of b that is not printable by its
// JSON escape (\uXXXX, or a surrogate pair). Outside strings a JSON text
// is ASCII, so each such rune is inside a string, where the escape means
// the same rune.
func inert(b []byte) []byte {
	clean := true
	for _, r := range string(b) {
		if r >= utf8.RuneSelf && !unicode.IsPrint(r) {
			clean = false
			break
		}
	}
	if clean {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for _, r := range string(b) {
		switch {
		case r < utf8.RuneSelf || unicode.IsPrint(r):
			out = utf8.AppendRune(out, r)
		case r > 0xFFFF:
			r -= 0x10000
			out = fmt.Appendf(out, `\u%04x\u%04x`, 0xD800+(r>>10), 0xDC00+(r&0x3FF))
		default:
			out = fmt.Appendf(out, `\u%04x`, r)
		}
	}
	return out
}

// Parse reads one line Line made (the newline optional). Errors: a line
// above MaxLine, one that is not a JSON event, or one of another Version
// or without an ID.
func Parse(line []byte) (Event, error) {
	if len(line) > MaxLine {
		return Event{}, fmt.Errorf("an event line of %d bytes, above %d", len(line), MaxLine)
	}
	var e Event
	if err := json.Unmarshal(line, &e); err != nil {
		return Event{}, fmt.Errorf("an event line that is not an event: %w", err)
	}
	if e.V != Version || e.ID == "" {
		return Event{}, fmt.Errorf("an event of version %d with id %q, want version %d with an id", e.V, e.ID, Version)
	}
	return e, nil
}
