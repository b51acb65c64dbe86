package game

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"slices"

	"github.com/grotto-game/grotto/game/content"
)

// SaveVersion is the version of the save format written by Encode. Decode
// reads this version only; a later issue adds migrations.
const SaveVersion = 1

// saveMagic starts every save, so that a stray blob is recognised as not one.
var saveMagic = [4]byte{'G', 'R', 'T', 'O'}

// ErrCorruptSave is returned (wrapped) by Decode for a blob that is not a
// readable save: wrong magic, bad checksum, undecodable or inconsistent data.
var ErrCorruptSave = errors.New("save is corrupt")

// ErrSaveVersion is returned (wrapped) by Decode for a save written by a
// format version this build does not know.
var ErrSaveVersion = errors.New("save format version unknown")

// Encode returns the game as a save blob: 4 bytes magic, 2 bytes version,
// 4 bytes CRC-32 (IEEE) of the body, then the JSON body (saveBody, in
// savebody.go). Restoring it with Decode gives a game that plays on exactly
// as this one would.
func (g *Game) Encode() ([]byte, error) { return g.encode(true) }

// encode is Encode, with the history or without it (StateHash).
func (g *Game) encode(withHistory bool) ([]byte, error) {
	rng, err := g.pcg.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("encode rng: %w", err)
	}
	sb := saveBody{State: g.s.toSave(), RNG: rng}
	if withHistory && (g.hist.complete || g.hist.n > 0) { // an old save with nothing since stays as it was
		sb.History, sb.HistoryPart = encodeHistory(g.hist.raw, g.hist.n), !g.hist.complete
	}
	body, err := json.Marshal(sb)
	if err != nil {
		return nil, fmt.Errorf("encode game: %w", err)
	}
	out := make([]byte, 10, 10+len(body))
	copy(out, saveMagic[:])
	binary.BigEndian.PutUint16(out[4:], SaveVersion)
	binary.BigEndian.PutUint32(out[6:], crc32.ChecksumIEEE(body))
	return append(out, body...), nil
}

// Decode restores a game from a blob made by Encode, to play with data (not
// nil; the tables the game was made with, or a later version of them: a save
// holds its monsters' stats, and data gives what is not saved, such as the
// light a monster carries). It returns an error wrapping ErrCorruptSave or
// ErrSaveVersion, and never panics, whatever the bytes.
func Decode(blob []byte, data *content.Tables) (*Game, error) {
	if len(blob) < 10 || !bytes.Equal(blob[:4], saveMagic[:]) {
		return nil, fmt.Errorf("%w: not a grotto save", ErrCorruptSave)
	}
	if v := binary.BigEndian.Uint16(blob[4:]); v != SaveVersion {
		return nil, fmt.Errorf("%w: version %d, this server reads %d", ErrSaveVersion, v, SaveVersion)
	}
	body := blob[10:]
	if crc32.ChecksumIEEE(body) != binary.BigEndian.Uint32(blob[6:]) {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrCorruptSave)
	}
	var snap saveBody
	if err := json.Unmarshal(body, &snap); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorruptSave, err)
	}
	s := snap.State.state()
	if newest := max(s.Rules, s.Played); newest > RulesVersion {
		// Not damaged: a newer build's game, kept for that build to read.
		// A game begun under these rules but played since by a newer
		// build is one too: its turns went by the newer rules, which
		// these cannot go on from, nor its history replay under.
		return nil, fmt.Errorf("%w: played under rules version %d, this server knows up to %d", ErrSaveVersion, newest, RulesVersion)
	}
	if err := s.validate(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorruptSave, err)
	}
	// Played on from here under these rules, its next save will say so
	// (Apply), and a build of the older rules refuse it (above, in that
	// build).
	upgraded := max(1, s.Rules, s.Played) < RulesVersion
	pcg := &rand.PCG{}
	if err := pcg.UnmarshalBinary(snap.RNG); err != nil {
		return nil, fmt.Errorf("%w: rng: %v", ErrCorruptSave, err)
	}
	g := &Game{s: s, pcg: pcg, rng: rand.New(pcg), data: data, upgraded: upgraded}
	g.upgradeAIs()
	if snap.History != nil {
		raw, n, err := decodeHistoryRaw(snap.History)
		if err == nil {
			_, err = decodeRaw(raw, n)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrCorruptSave, err)
		}
		g.hist = history{raw: raw, n: n, complete: !snap.HistoryPart}
	}
	if err := g.checkWorn(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorruptSave, err)
	}
	g.buffers()
	g.updateSight() // the save holds the memory of things as of its last turn
	return g, nil
}

// upgradeAIs gives a monster saved with one of the two behaviours saves had
// before monsters got behaviours (hostile, herbivore) the behaviour its
// kind has in data now, if that is one of the newer ones (a kind saved as hostile and now still
// hostile or a herbivore keeps what it was saved with): a lurker of an old save starts in view, a
// sleeper awake, since the old game had already shown them.
func (g *Game) upgradeAIs() {
	for i := 1; i < len(g.s.Actors); i++ {
		a := &g.s.Actors[i]
		if a.AI != AIHostile && a.AI != AIHerbivore {
			continue
		}
		if k, ok := g.data.Monster(a.Kind); ok && aiOf(k.AI) > AIHerbivore {
			a.AI = aiOf(k.AI)
		}
	}
}

// validate checks the invariants the rest of the core relies on, so that a
// damaged save is refused instead of crashing a turn later.
func (s *state) validate() error {
	m := s.Map
	switch {
	case m == nil:
		return errors.New("no map")
	case m.W <= 0 || m.H <= 0 || m.W > 1024 || m.H > 1024:
		return fmt.Errorf("map size %dx%d", m.W, m.H)
	case len(m.Tiles) != m.W*m.H || len(m.Explored) != m.W*m.H:
		return errors.New("map data does not match its size")
	case len(s.Actors) == 0 || s.Actors[0].Kind != "player":
		return errors.New("no player")
	case s.Depth < 1 || s.Turn < 0:
		return fmt.Errorf("depth %d, turn %d", s.Depth, s.Turn)
	case s.CharLevel < 0 || s.XP < 0:
		return fmt.Errorf("character level %d, XP %d", s.CharLevel, s.XP)
	case s.Rules < 0 || s.Played < 0:
		return fmt.Errorf("rules version %d, played under %d", s.Rules, s.Played)
	case s.Wander < 0 || s.Wander > WanderMaxTurns:
		// A level draws WanderMinTurns..WanderMaxTurns; a larger countdown
		// would switch arrivals off for the rest of the game.
		return fmt.Errorf("next arrival in %d turns, outside 0..%d", s.Wander, WanderMaxTurns)
	}
	for _, t := range m.Tiles {
		if !t.Valid() {
			return fmt.Errorf("unknown tile %d", t)
		}
	}
	if err := s.validateActors(); err != nil {
		return err
	}
	if err := s.validateItems(); err != nil {
		return err
	}
	if err := validateKnowledge(s); err != nil {
		return err
	}
	return validateSeen(m, s.Seen)
}

// validateActors checks every actor: on the map, a known behaviour, and
// loot of known kinds without pack letters, at most InventorySize items.
func (s *state) validateActors() error {
	m := s.Map
	for _, a := range s.Actors {
		if !m.In(a.Pos) {
			return fmt.Errorf("%s outside the map", a.Kind)
		}
		if a.AI > AISleeper {
			return fmt.Errorf("%s has unknown behaviour %d", a.Kind, a.AI)
		}
		if a.Unseen < 0 || a.Waited < 0 || len(a.Loot) > InventorySize {
			return fmt.Errorf("%s: unseen %d turns, waited %d turns, %d items of loot", a.Kind, a.Unseen, a.Waited, len(a.Loot))
		}
		for _, it := range a.Loot {
			if !it.Kind.Known() {
				return fmt.Errorf("%s carries unknown item %q", a.Kind, it.Kind)
			}
			if it.Letter != 0 {
				return fmt.Errorf("%s carries %s lettered %q: only the pack's items have letters", a.Kind, it.Kind, it.Letter)
			}
		}
	}
	return nil
}

// validateItems checks the items on the floor and in the pack: known
// kinds, the floor's on the map and neither worn nor lettered, the pack
// within InventorySize with letters each used once, only equipment worn,
// charges on wands only and enchantments within ±99.
func (s *state) validateItems() error {
	m := s.Map
	if len(s.Inventory) > InventorySize {
		return fmt.Errorf("%d items in a %d-slot inventory", len(s.Inventory), InventorySize)
	}
	for _, it := range append(slices.Clone(s.Items), s.Inventory...) {
		if !it.Kind.Known() {
			return fmt.Errorf("unknown item %q", it.Kind)
		}
	}
	for _, it := range s.Items {
		if !m.In(it.Pos) {
			return fmt.Errorf("%s outside the map", it.Kind)
		}
		if it.Worn || it.Letter != 0 {
			return fmt.Errorf("%s worn or lettered on the floor", it.Kind)
		}
	}
	if err := checkLetters(s.Inventory); err != nil {
		return err
	}
	for _, it := range s.Inventory {
		if it.Worn && !it.Kind.Wearable() {
			return fmt.Errorf("%s worn, but it is not equipment", it.Kind)
		}
	}
	for _, it := range append(slices.Clone(s.Items), s.Inventory...) {
		if it.Charges < 0 || it.Charges > 0 && !it.Kind.Wand() || it.Enchant < -99 || it.Enchant > 99 {
			return fmt.Errorf("%s with %d charges, enchanted %+d", it.Kind, it.Charges, it.Enchant)
		}
	}
	return nil
}
