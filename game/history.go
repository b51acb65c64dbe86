package game

// This file is a game's history: every command Apply accepted since turn
// 0, kept by the core itself and saved with the game, so that a finished
// game is its seed and its history however often it was saved,
// resumed or taken over. It also holds what a replay checks: the rules a
// game was played under (Rules) and a hash of its state (StateHash).

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/grotto-game/grotto/game/content"
)

// RulesVersion is the version of the rules in this code: bump it whenever
// a change makes the same seed and commands give another game (a new
// rule, a changed formula, another use of the RNG). Rules combines it with
// a digest of the data tables, which can change without the code.
// Version 2: rolled combat, items to learn, hunger and special rooms;
// 3: monsters that keep arriving (wander.go), stable pack
// letters and throws over deep water; 4: a monster hurt by the player
// hunts them, a pack member loses patience, an unknown scroll read with
// nothing to act on is learned, a health potion heals a share of max HP,
// and the vanished offerings of a shrine are forgotten.
const RulesVersion = 4

// Rules returns the rules a game made with data is played under, e.g.
// "1.3fa09c1d22b4": RulesVersion, then the first 12 hex digits of the
// SHA-256 of data's JSON. Two games with equal Rules, seed and commands are
// the same game.
func Rules(data *content.Tables) string {
	b, err := json.Marshal(data)
	if err != nil { // plain structs of numbers and strings: cannot happen
		return fmt.Sprintf("%d.unknown", RulesVersion)
	}
	sum := sha256.Sum256(b)
	return fmt.Sprintf("%d.%s", RulesVersion, hex.EncodeToString(sum[:6]))
}

// Rules returns the rules this game is played under, as Rules(data) says
// them, for a game begun under this RulesVersion. A game begun under an
// earlier version (a save from before, resumed) is played on under these
// rules, so its history from turn 0 would not replay under any one set:
// its Rules names both ("1+2.3fa09c1d22b4"), which a replay refuses as
// recorded under other rules, in words, instead of showing another game.
func (g *Game) Rules() string {
	now := Rules(g.data)
	if begun := max(1, g.s.Rules); begun != RulesVersion {
		return fmt.Sprintf("%d+%s", begun, now)
	}
	return now
}

// ErrCorruptHistory is returned (wrapped) by DecodeHistory for bytes that
// are not a whole history: damaged, truncated, or of an unknown version.
var ErrCorruptHistory = errors.New("history is damaged")

// historyV1 is the first byte of a history blob: version 1 is a CRC-32
// (IEEE, big-endian) of the raw history, then the raw history compressed
// with DEFLATE (RFC 1951, compress/flate). The raw history is a uvarint
// count of commands, then each command (appendCommand).
const historyV1 byte = 1

// MaxHistoryBytes is the largest raw (uncompressed) history DecodeHistory
// accepts: 16 MiB, far beyond any game (about 1 byte a turn), so damaged
// or hostile bytes cannot make it allocate without bound.
const MaxHistoryBytes = 16 << 20

// history is the commands a game accepted, in the raw form (appendCommand),
// with their count. complete is false for a game resumed from a save
// written before histories were kept: its history misses the first turns.
type history struct {
	raw      []byte
	n        int
	complete bool
}

func (h *history) add(c Command) {
	h.raw = appendCommand(h.raw, c)
	h.n++
}

// History returns every command the game accepted since turn 0, in order,
// and true; or, for a game resumed from a save written before histories
// were kept, the commands since then and false.
func (g *Game) History() ([]Command, bool) {
	cmds, err := decodeRaw(g.hist.raw, g.hist.n)
	if err != nil { // the core wrote it: cannot happen
		return nil, false
	}
	return cmds, g.hist.complete
}

// HistoryBlob returns the game's history as it is kept: compressed,
// versioned and checksummed (DecodeHistory reads it), and whether it is
// complete from turn 0 (see History). About 1 byte a turn before
// compression.
func (g *Game) HistoryBlob() ([]byte, bool) {
	return encodeHistory(g.hist.raw, g.hist.n), g.hist.complete
}

// HistoryLen returns how many commands the game's history holds.
func (g *Game) HistoryLen() int { return g.hist.n }

// encodeHistory returns the blob of a raw history of n commands.
func encodeHistory(raw []byte, n int) []byte {
	full := binary.AppendUvarint(nil, uint64(n))
	full = append(full, raw...)
	var buf bytes.Buffer
	buf.WriteByte(historyV1)
	buf.Write(binary.BigEndian.AppendUint32(nil, crc32.ChecksumIEEE(full)))
	w, _ := flate.NewWriter(&buf, flate.BestCompression) // the level is valid
	w.Write(full)                                        // a bytes.Buffer does not fail
	w.Close()
	return buf.Bytes()
}

// DecodeHistory returns the commands of a blob made by HistoryBlob. Bytes
// that are not one (damaged, truncated, another version, more than
// MaxHistoryBytes) give an error wrapping ErrCorruptHistory; it never
// panics, whatever the bytes.
func DecodeHistory(blob []byte) ([]Command, error) {
	raw, n, err := decodeHistoryRaw(blob)
	if err != nil {
		return nil, err
	}
	return decodeRaw(raw, n)
}

// decodeHistoryRaw checks a blob and returns its raw commands and count.
func decodeHistoryRaw(blob []byte) ([]byte, int, error) {
	if len(blob) < 5 {
		return nil, 0, fmt.Errorf("%w: %d bytes, too short", ErrCorruptHistory, len(blob))
	}
	if blob[0] != historyV1 {
		return nil, 0, fmt.Errorf("%w: unknown version %d", ErrCorruptHistory, blob[0])
	}
	r := flate.NewReader(bytes.NewReader(blob[5:]))
	full, err := io.ReadAll(io.LimitReader(r, MaxHistoryBytes+1))
	if err != nil {
		return nil, 0, fmt.Errorf("%w: %v", ErrCorruptHistory, err)
	}
	if len(full) > MaxHistoryBytes {
		return nil, 0, fmt.Errorf("%w: more than %d bytes", ErrCorruptHistory, MaxHistoryBytes)
	}
	if crc32.ChecksumIEEE(full) != binary.BigEndian.Uint32(blob[1:5]) {
		return nil, 0, fmt.Errorf("%w: checksum mismatch", ErrCorruptHistory)
	}
	n, k := binary.Uvarint(full)
	if k <= 0 || n > uint64(len(full)) {
		return nil, 0, fmt.Errorf("%w: bad command count", ErrCorruptHistory)
	}
	return full[k:], int(n), nil
}

// decodeRaw decodes exactly n commands from raw.
func decodeRaw(raw []byte, n int) ([]Command, error) {
	cmds := make([]Command, 0, min(n, 1<<16)) // n is not trusted: grow past that as commands are read
	for len(raw) > 0 {
		c, rest, err := readCommand(raw)
		if err != nil {
			return nil, fmt.Errorf("%w: command %d: %v", ErrCorruptHistory, len(cmds), err)
		}
		cmds, raw = append(cmds, c), rest
	}
	if len(cmds) != n {
		return nil, fmt.Errorf("%w: %d commands, the count says %d", ErrCorruptHistory, len(cmds), n)
	}
	return cmds, nil
}

// Raw command form. A step of (dx, dy) in -1..1 is one byte,
// compactMove | (dx+1)*3+(dy+1); a wait, a descent or a pick-up is its
// Action's byte; any other command is its Action's byte followed by every
// field Normalized keeps, as varints (DX, DY, Item, Target.X, Target.Y,
// Cheat, Stat) and a length-prefixed Kind; an ActCall then has its
// length-prefixed Name (histories from before ActCall hold none). A
// search is its Action's byte alone, like a wait.
const compactMove = 0x80

// maxNameBytes is the longest ActCall name readCommand accepts, in bytes:
// MaxCallRunes runes of up to 4 bytes.
const maxNameBytes = 4 * MaxCallRunes

func appendCommand(b []byte, c Command) []byte {
	c = c.Normalized()
	switch {
	case c.Action == ActMove && c.DX >= -1 && c.DX <= 1 && c.DY >= -1 && c.DY <= 1:
		return append(b, compactMove|byte((c.DX+1)*3+(c.DY+1)))
	case c.Action == ActWait || c.Action == ActDescend || c.Action == ActPickUp || c.Action == ActSearch:
		return append(b, byte(c.Action))
	}
	b = append(b, byte(c.Action))
	for _, v := range []int{c.DX, c.DY, c.Item, c.Target.X, c.Target.Y} {
		b = binary.AppendVarint(b, int64(v))
	}
	b = binary.AppendUvarint(b, uint64(c.Cheat))
	b = binary.AppendUvarint(b, uint64(c.Stat))
	b = binary.AppendUvarint(b, uint64(len(c.Kind)))
	b = append(b, c.Kind...)
	if c.Action == ActCall {
		b = binary.AppendUvarint(b, uint64(len(c.Name)))
		b = append(b, c.Name...)
	}
	return b
}

// readCommand reads one command from the front of b.
func readCommand(b []byte) (Command, []byte, error) {
	op := b[0]
	b = b[1:]
	if op&compactMove != 0 {
		k := int(op &^ compactMove)
		if k > 8 {
			return Command{}, nil, fmt.Errorf("bad step byte %#x", op)
		}
		return Move(k/3-1, k%3-1), b, nil
	}
	c := Command{Action: Action(op)}
	switch c.Action {
	case ActWait, ActDescend, ActPickUp, ActSearch:
		return c, b, nil
	case ActMove, ActUse, ActDrop, ActThrow, ActCheat, ActLevelUp, ActCall:
	default:
		return Command{}, nil, fmt.Errorf("unknown action %d", op)
	}
	var ints [5]int
	for i := range ints {
		v, k := binary.Varint(b)
		if k <= 0 || v < -1<<31 || v > 1<<31 {
			return Command{}, nil, errors.New("bad field")
		}
		ints[i], b = int(v), b[k:]
	}
	var u [3]uint64
	for i := range u {
		v, k := binary.Uvarint(b)
		if k <= 0 || (i < 2 && v > 255) || (i == 2 && v > uint64(len(b)-k)) {
			return Command{}, nil, errors.New("bad field")
		}
		u[i], b = v, b[k:]
	}
	c.DX, c.DY, c.Item, c.Target.X, c.Target.Y = ints[0], ints[1], ints[2], ints[3], ints[4]
	c.Cheat, c.Stat = Cheat(u[0]), Stat(u[1])
	c.Kind, b = ItemKind(b[:u[2]]), b[u[2]:]
	if c.Action == ActCall {
		v, k := binary.Uvarint(b)
		if k <= 0 || v > maxNameBytes || v > uint64(len(b)-k) {
			return Command{}, nil, errors.New("bad name")
		}
		c.Name, b = string(b[k:k+int(v)]), b[k+int(v):]
	}
	return c, b, nil
}

// StateHash returns a hash of the game's state: the hex SHA-256 of its save
// (Encode) without the history, so two games hash equal exactly when they
// would play on the same. A replay of a finished game checks it.
func (g *Game) StateHash() string {
	blob, err := g.encode(false)
	if err != nil {
		return "unencodable: " + err.Error()
	}
	sum := sha256.Sum256(blob)
	return hex.EncodeToString(sum[:])
}

// Slain is how many monsters of one name the player killed.
type Slain struct {
	Name  string // the monster's name, e.g. "orc"
	Count int
}

// countKill adds one kill of name to slain.
func countKill(slain []Slain, name string) []Slain {
	for i := range slain {
		if slain[i].Name == name {
			slain[i].Count++
			return slain
		}
	}
	return append(slain, Slain{Name: name, Count: 1})
}

// KillsByMonster returns the player's kills by monster name, in the order
// each was first killed (a copy). Games saved before kills were counted by
// monster count only those since.
func (g *Game) KillsByMonster() []Slain { return append([]Slain(nil), g.s.Slain...) }

// ResumedUnderNewerRules reports whether g was decoded from a save last
// played under older rules than this build's RulesVersion: it plays on
// under these (Rules names both), and once it has played a turn its saves
// say so, so that a build of the older rules refuses them as another
// version's (Decode's ErrSaveVersion) instead of playing on from turns of
// rules it does not know. A save of the game before any turn is the one
// it was decoded from.
// A journal entry appended to the older save would escape that: the
// caller saves a snapshot before the first turn it journals.
func (g *Game) ResumedUnderNewerRules() bool { return g.upgraded }
