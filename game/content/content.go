// Package content holds the game's data: the monsters, the items, the
// spawn tables, the names and descriptions of the map's tiles and the
// balance numbers (balance.go), as JSON files embedded in the binary (data/*.json), checked
// when loaded. A bad entry is an error naming the file and the entry.
package content

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

//go:embed data/*.json
var files embed.FS

// RGB is a colour, 0–255 per channel.
type RGB struct{ R, G, B uint8 }

// Light is a light source: a colour and a range in tiles.
type Light struct {
	Range int
	Color RGB
}

// AI names a monster's behaviour.
type AI string

// The behaviours monsters can have; package game's ai*.go files hold each
// one's rule.
const (
	AIHostile   AI = "hostile"   // chases the player it sees and attacks
	AIHerbivore AI = "herbivore" // flees the player it sees, never attacks
	AIRanged    AI = "ranged"    // keeps its distance and shoots along a clear line (needs "ranged")
	AICoward    AI = "coward"    // flees when badly hurt, comes back healed
	AIPack      AI = "pack"      // hangs back until its pack is near, then surrounds
	AILurker    AI = "lurker"    // waits unseen until the player is close
	AIBreeder   AI = "breeder"   // splits into a free tile now and then
	AIThief     AI = "thief"     // steals an item on a hit and runs away with it
	AISleeper   AI = "sleeper"   // starts asleep, wakes on noise or sight
)

// AIs lists every behaviour, in the order the data documentation gives them.
var AIs = []AI{AIHostile, AIHerbivore, AIRanged, AICoward, AIPack, AILurker, AIBreeder, AIThief, AISleeper}

// Speed is how often a monster acts: "" (normal, once a turn), SpeedFast
// (twice a turn) or SpeedSlow (every other turn), as DCSS's speeds 20 and 5
// against the player's 10.
type Speed string

// The speeds a monster can have.
const (
	SpeedNormal Speed = ""
	SpeedFast   Speed = "fast"
	SpeedSlow   Speed = "slow"
)

// Ranged is a monster's attack at a distance: how far it reaches in tiles
// (Chebyshev), its power (damage rolled as for melee, less the target's
// defense), the words its messages use ("shoots an arrow at": "The kobold
// archer shoots an arrow at you for 3 hit points."; the past, "shot", for
// the cause of death: "it shot you for 3") and, if Poison > 0, the turns
// of poison a hit gives.
type Ranged struct {
	Range  int    // tiles, 2..8
	Power  int    // ≥ 0
	Verb   string // present tense, third person, ending before "you"
	Past   string // past tense, for "it shot you for 4"
	Poison int    // turns of poison a hit gives; 0 for none
}

// Monster is one monster kind.
type Monster struct {
	ID   string // stable identifier, saved in games
	Name string // what messages call it, lower case
	// Description is one line for look mode and the help screen, e.g. "A
	// brutish orc, tougher than it looks."; never empty.
	Description string
	Glyph       rune
	ASCII       rune // the glyph in the ASCII symbol set: Glyph when that is ASCII, else the data's "ascii"
	FG          RGB
	HP          int // hit points, > 0
	Power       int // attack, ≥ 0
	Defense     int // ≥ 0
	Vision      int // how far it sees, in tiles, > 0
	AI          AI
	XP          int    // experience its death is worth, ≥ 0
	Light       *Light // a light it carries or gives off, or nil
	// Accuracy and Evasion shift to-hit chances by 5% a point (game.HitChance).
	Accuracy int
	Evasion  int
	Speed    Speed   // how often it acts
	Ranged   *Ranged // its attack at a distance; set exactly when AI is AIRanged
	Group    int     // how many spawn together (a pack), 0 or 1 for one alone
	// Notable marks a kill worth telling everyone: the player killing
	// one makes a "kill" event in the live events feed (server/events).
	// It is no rule (the game never reads it), so it is left out of the
	// data's digest (game.Rules) and marking a monster needs no new
	// RulesVersion.
	Notable bool `json:"-"`
}

// Item is the look of one item kind, and for equipment what wearing it
// gives; its rules are in package game.
type Item struct {
	ID    string
	Glyph rune
	ASCII rune // the glyph in the ASCII symbol set: Glyph when that is ASCII, else the data's "ascii"
	FG    RGB
	Equip *Equip // what wearing it gives; nil for items that are not worn
}

// The equipment slots an Equip can name (python-tcod tutorial part 13:
// a weapon and an armour slot, one item in each).
const (
	SlotWeapon = "weapon"
	SlotArmour = "armour"
)

// Equip is what wearing an item gives (python-tcod tutorial part 13,
// Equippable): the slot it is worn in and its bonuses, each ≥ 0, added to
// the wearer's power and defense while it is worn.
type Equip struct {
	Slot    string // SlotWeapon or SlotArmour
	Power   int    // added to the wearer's power
	Defense int    // added to the wearer's defense
	// The trade-offs beyond power and defense, each may be negative: Accuracy
	// is added to the wearer's chance to hit, in % (-50..50); Evasion is
	// taken from the chance of blows at the wearer, in % (-50..50); Noise
	// is added to how far monsters notice the wearer, in tiles (-5..5).
	Accuracy int
	Evasion  int
	Noise    int
}

// Tile is what a kind of map tile is called and how it is explained: look
// mode and the help screen's legend read it (tiles.json). How a tile looks
// (glyph, colour) is the UI's theme; whether it can be walked or seen
// through is package world's.
type Tile struct {
	ID          string // the tile kind, as package game names it: "deep water"
	Name        string // what look mode calls it, lower case: "deep water"
	Description string // one line: "Water too deep to cross: you cannot swim, but you can see over it."
}

// Spawn is one row of a spawn table: at depth d (MinDepth ≤ d ≤ MaxDepth)
// the entry has weight Weight, plus d when AddDepth is set.
type Spawn struct {
	ID       string
	Weight   int
	MinDepth int
	MaxDepth int
	AddDepth bool
}

// WeightAt returns the entry's weight at depth, 0 outside its depths.
func (s Spawn) WeightAt(depth int) int {
	if depth < s.MinDepth || depth > s.MaxDepth {
		return 0
	}
	if s.AddDepth {
		return s.Weight + depth
	}
	return s.Weight
}

// Tables is all the game's data, read-only once loaded.
type Tables struct {
	Monsters      []Monster
	Items         []Item
	MonsterSpawns []Spawn
	ItemSpawns    []Spawn
	Tiles         []Tile // every kind of map tile (game.CheckData checks each has one)
	Balance       Balance
}

// Tile returns the tile kind with id, or false.
func (t *Tables) Tile(id string) (Tile, bool) {
	for _, k := range t.Tiles {
		if k.ID == id {
			return k, true
		}
	}
	return Tile{}, false
}

// Monster returns the monster kind with id, or false.
func (t *Tables) Monster(id string) (Monster, bool) {
	for _, m := range t.Monsters {
		if m.ID == id {
			return m, true
		}
	}
	return Monster{}, false
}

// Item returns the item kind with id, or false.
func (t *Tables) Item(id string) (Item, bool) {
	for _, it := range t.Items {
		if it.ID == id {
			return it, true
		}
	}
	return Item{}, false
}

// Load reads and checks the embedded data files (see Parse).
func Load() (*Tables, error) {
	read := func(name string) []byte {
		b, _ := files.ReadFile("data/" + name)
		return b
	}
	t, err := Parse(read("monsters.json"), read("items.json"), read("spawns.json"))
	if err != nil {
		return nil, err
	}
	if t.Tiles, err = ParseTiles(read("tiles.json")); err != nil {
		return nil, err
	}
	if t.Balance, err = ParseBalance(read("balance.json")); err != nil {
		return nil, err
	}
	return t, nil
}

type tileJSON struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
}

// ParseTiles checks and converts tiles.json: every entry needs an id, a
// name and a description, and no id may repeat. Errors name the file and
// the entry (by index and id). That every tile kind of the game has an
// entry is package game's check (game.CheckData).
func ParseTiles(data []byte) ([]Tile, error) {
	var ts []tileJSON
	if err := strict(data, &ts); err != nil {
		return nil, fmt.Errorf("tiles.json: %w", err)
	}
	var out []Tile
	for i, t := range ts {
		var err error
		switch {
		case t.ID == "" || t.Name == "":
			err = errors.New("id and name must not be empty")
		case strings.TrimSpace(t.Description) == "":
			err = errors.New("description must not be empty")
		}
		for _, prev := range out {
			if prev.ID == t.ID {
				err = errors.New("id used twice")
			}
		}
		if err != nil {
			return nil, fmt.Errorf("tiles.json: entry %d (%q): %w", i, t.ID, err)
		}
		out = append(out, Tile{ID: t.ID, Name: t.Name, Description: t.Description})
	}
	return out, nil
}

// Default returns the embedded tables, loaded once: a convenience for tests.
// It panics if they are bad; a server calls game.LoadData at start to fail
// cleanly instead, and passes its tables to the games it makes.
var Default = sync.OnceValue(func() *Tables {
	t, err := Load()
	if err != nil {
		panic(err)
	}
	return t
})

type lightJSON struct {
	Range int    `json:"range"`
	Color string `json:"color"`
}

type monsterJSON struct {
	ID          string      `json:"id"`
	Name        string      `json:"name"`
	Description string      `json:"description"`
	Glyph       string      `json:"glyph"`
	ASCII       string      `json:"ascii"` // required when glyph is not printable ASCII
	FG          string      `json:"fg"`
	HP          int         `json:"hp"`
	Power       int         `json:"power"`
	Defense     int         `json:"defense"`
	Vision      int         `json:"vision"`
	AI          string      `json:"ai"`
	XP          int         `json:"xp"`
	Light       *lightJSON  `json:"light"`
	Accuracy    int         `json:"accuracy"` // optional, 0 by default
	Evasion     int         `json:"evasion"`
	Speed       string      `json:"speed"` // "", "fast" or "slow"
	Ranged      *rangedJSON `json:"ranged"`
	Group       int         `json:"group"`
	Notable     bool        `json:"notable"` // optional: a kill the events feed tells
}

type rangedJSON struct {
	Range  int    `json:"range"`
	Power  int    `json:"power"`
	Verb   string `json:"verb"`
	Past   string `json:"past"`
	Poison int    `json:"poison"`
}

type itemJSON struct {
	ID    string     `json:"id"`
	Glyph string     `json:"glyph"`
	ASCII string     `json:"ascii"` // required when glyph is not printable ASCII
	FG    string     `json:"fg"`
	Equip *equipJSON `json:"equip"`
}

type equipJSON struct {
	Slot     string `json:"slot"`
	Power    int    `json:"power"`
	Defense  int    `json:"defense"`
	Accuracy int    `json:"accuracy"`
	Evasion  int    `json:"evasion"`
	Noise    int    `json:"noise"`
}

type spawnJSON struct {
	ID       string `json:"id"`
	Weight   int    `json:"weight"`
	MinDepth int    `json:"min_depth"`
	MaxDepth int    `json:"max_depth"`
	AddDepth bool   `json:"add_depth"`
}

type spawnsJSON struct {
	Monsters []spawnJSON `json:"monsters"`
	Items    []spawnJSON `json:"items"`
}

// Parse checks and converts the three data files: each entry's fields, and
// that every spawn row names an entry. Errors name the file and the entry
// (by index and id). Whether the tables fit the game's depths and item
// rules is package game's check (game.CheckData).
func Parse(monsters, items, spawns []byte) (*Tables, error) {
	t := &Tables{}
	var ms []monsterJSON
	if err := strict(monsters, &ms); err != nil {
		return nil, fmt.Errorf("monsters.json: %w", err)
	}
	for i, m := range ms {
		mon, err := m.convert()
		if err != nil {
			return nil, fmt.Errorf("monsters.json: entry %d (%q): %w", i, m.ID, err)
		}
		if _, dup := t.Monster(mon.ID); dup {
			return nil, fmt.Errorf("monsters.json: entry %d (%q): id used twice", i, m.ID)
		}
		t.Monsters = append(t.Monsters, mon)
	}
	var is []itemJSON
	if err := strict(items, &is); err != nil {
		return nil, fmt.Errorf("items.json: %w", err)
	}
	for i, it := range is {
		item, err := it.convert()
		if err != nil {
			return nil, fmt.Errorf("items.json: entry %d (%q): %w", i, it.ID, err)
		}
		if _, dup := t.Item(it.ID); dup {
			return nil, fmt.Errorf("items.json: entry %d (%q): id used twice", i, it.ID)
		}
		t.Items = append(t.Items, item)
	}
	var sp spawnsJSON
	if err := strict(spawns, &sp); err != nil {
		return nil, fmt.Errorf("spawns.json: %w", err)
	}
	var err error
	if t.MonsterSpawns, err = spawnTable(sp.Monsters, "monsters", func(id string) bool { _, ok := t.Monster(id); return ok }); err != nil {
		return nil, err
	}
	if t.ItemSpawns, err = spawnTable(sp.Items, "items", func(id string) bool { _, ok := t.Item(id); return ok }); err != nil {
		return nil, err
	}
	return t, nil
}

// strict decodes JSON refusing unknown fields, so a typo is an error.
func strict(data []byte, v any) error {
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

func (m monsterJSON) convert() (Monster, error) {
	g, err := glyph(m.Glyph)
	if err != nil {
		return Monster{}, err
	}
	a, err := asciiGlyph(g, m.ASCII)
	if err != nil {
		return Monster{}, err
	}
	fg, err := hexColor(m.FG)
	if err != nil {
		return Monster{}, err
	}
	switch {
	case m.ID == "" || m.Name == "":
		return Monster{}, errors.New("id and name must not be empty")
	case strings.TrimSpace(m.Description) == "":
		return Monster{}, errors.New("description must not be empty")
	case m.HP <= 0:
		return Monster{}, fmt.Errorf("hp %d must be above 0", m.HP)
	case m.Power < 0 || m.Defense < 0 || m.XP < 0:
		return Monster{}, errors.New("power, defense and xp must not be negative")
	case m.Vision <= 0:
		return Monster{}, fmt.Errorf("vision %d must be above 0", m.Vision)
	case !slices.Contains(AIs, AI(m.AI)):
		return Monster{}, fmt.Errorf("ai %q is not a behaviour the game has (%v)", m.AI, AIs)
	case Speed(m.Speed) != SpeedNormal && Speed(m.Speed) != SpeedFast && Speed(m.Speed) != SpeedSlow:
		return Monster{}, fmt.Errorf("speed %q is not %q, %q or empty", m.Speed, SpeedFast, SpeedSlow)
	case m.Group < 0 || m.Group > 8:
		return Monster{}, fmt.Errorf("group %d is not 0..8", m.Group)
	case m.Accuracy < -10 || m.Accuracy > 10 || m.Evasion < -10 || m.Evasion > 10:
		return Monster{}, errors.New("accuracy and evasion must be -10..10")
	case (AI(m.AI) == AIRanged) != (m.Ranged != nil):
		return Monster{}, errors.New(`"ranged" is given exactly for the ai "ranged"`)
	}
	mon := Monster{ID: m.ID, Name: m.Name, Description: m.Description, Glyph: g, ASCII: a, FG: fg, HP: m.HP, Power: m.Power, Defense: m.Defense,
		Vision: m.Vision, AI: AI(m.AI), XP: m.XP, Accuracy: m.Accuracy, Evasion: m.Evasion, Speed: Speed(m.Speed), Group: m.Group, Notable: m.Notable}
	if r := m.Ranged; r != nil {
		switch {
		case r.Range < 2 || r.Range > 8:
			return Monster{}, fmt.Errorf("ranged range %d is not 2..8", r.Range)
		case r.Power < 0 || r.Poison < 0:
			return Monster{}, errors.New("ranged power and poison must not be negative")
		case strings.TrimSpace(r.Verb) == "" || strings.TrimSpace(r.Past) == "":
			return Monster{}, errors.New("ranged verb and past must not be empty")
		}
		mon.Ranged = &Ranged{Range: r.Range, Power: r.Power, Verb: r.Verb, Past: r.Past, Poison: r.Poison}
	}
	if m.Light != nil {
		c, err := hexColor(m.Light.Color)
		if err != nil {
			return Monster{}, fmt.Errorf("light: %w", err)
		}
		if m.Light.Range <= 0 {
			return Monster{}, fmt.Errorf("light range %d must be above 0", m.Light.Range)
		}
		mon.Light = &Light{Range: m.Light.Range, Color: c}
	}
	return mon, nil
}

func (it itemJSON) convert() (Item, error) {
	g, err := glyph(it.Glyph)
	if err != nil {
		return Item{}, err
	}
	a, err := asciiGlyph(g, it.ASCII)
	if err != nil {
		return Item{}, err
	}
	if it.ID == "" {
		return Item{}, errors.New("id is empty")
	}
	fg, err := hexColor(it.FG)
	if err != nil {
		return Item{}, err
	}
	item := Item{ID: it.ID, Glyph: g, ASCII: a, FG: fg}
	if e := it.Equip; e != nil {
		switch {
		case e.Slot != SlotWeapon && e.Slot != SlotArmour:
			return Item{}, fmt.Errorf("equip slot %q is not %q or %q", e.Slot, SlotWeapon, SlotArmour)
		case e.Power < 0 || e.Defense < 0:
			return Item{}, errors.New("equip power and defense must not be negative")
		case e.Accuracy < -50 || e.Accuracy > 50 || e.Evasion < -50 || e.Evasion > 50:
			return Item{}, errors.New("equip accuracy and evasion must be -50..50")
		case e.Noise < -5 || e.Noise > 5:
			return Item{}, errors.New("equip noise must be -5..5")
		}
		item.Equip = &Equip{Slot: e.Slot, Power: e.Power, Defense: e.Defense, Accuracy: e.Accuracy, Evasion: e.Evasion, Noise: e.Noise}
	}
	return item, nil
}

func spawnTable(rows []spawnJSON, kind string, known func(string) bool) ([]Spawn, error) {
	var out []Spawn
	for i, r := range rows {
		var err error
		switch {
		case !known(r.ID):
			err = fmt.Errorf("no %s entry has this id", strings.TrimSuffix(kind, "s"))
		case r.Weight <= 0:
			err = fmt.Errorf("weight %d must be above 0", r.Weight)
		case r.MinDepth < 1 || r.MaxDepth < r.MinDepth:
			err = fmt.Errorf("depths %d..%d are not a range from 1 up", r.MinDepth, r.MaxDepth)
		}
		if err != nil {
			return nil, fmt.Errorf("spawns.json: %s entry %d (%q): %w", kind, i, r.ID, err)
		}
		out = append(out, Spawn{ID: r.ID, Weight: r.Weight, MinDepth: r.MinDepth, MaxDepth: r.MaxDepth, AddDepth: r.AddDepth})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("spawns.json: no %s", kind)
	}
	return out, nil
}

func glyph(s string) (rune, error) {
	if utf8.RuneCountInString(s) != 1 {
		return 0, fmt.Errorf("glyph %q must be one character", s)
	}
	r, _ := utf8.DecodeRuneInString(s)
	return r, nil
}

// asciiGlyph returns the glyph of g in the ASCII symbol set (for terminals
// and fonts without box-drawing glyphs, as NetHack's symbol sets): g itself
// when it is printable ASCII and the data gives none, else the data's
// "ascii", which must be one printable ASCII character.
func asciiGlyph(g rune, s string) (rune, error) {
	printable := func(r rune) bool { return r > ' ' && r < 0x7f }
	if s == "" {
		if !printable(g) {
			return 0, fmt.Errorf("glyph %q is not ASCII: give an \"ascii\" glyph for terminals without it", g)
		}
		return g, nil
	}
	a, err := glyph(s)
	if err != nil || !printable(a) {
		return 0, fmt.Errorf("ascii glyph %q must be one printable ASCII character", s)
	}
	return a, nil
}

func hexColor(s string) (RGB, error) {
	var c RGB
	if len(s) != 7 || s[0] != '#' {
		return c, fmt.Errorf("colour %q is not #RRGGBB", s)
	}
	if _, err := fmt.Sscanf(s[1:], "%02x%02x%02x", &c.R, &c.G, &c.B); err != nil {
		return c, fmt.Errorf("colour %q is not #RRGGBB", s)
	}
	return c, nil
}
