package game

// This file is the save body's format: tagged structs that say exactly what
// a save's JSON holds, kept apart from the in-memory types so that renaming
// or adding a Go field cannot change a save. The keys are the Go field names
// that version 1 saves were first written with (before the body had its own
// types), so saves from then still load; testdata/depth2.save pins them.

import "github.com/grotto-game/grotto/game/world"

// saveBody is the JSON body of a version-1 save: the state plus the RNG.
type saveBody struct {
	State saveState `json:"State"`
	RNG   []byte    `json:"RNG"` // math/rand/v2 PCG state (MarshalBinary), base64 in JSON
	// History is every command accepted since turn 0 (HistoryBlob's form,
	// base64 in JSON); absent in saves from before histories were kept,
	// whose games then have an incomplete history, and in
	// the encoding StateHash hashes.
	History []byte `json:"History,omitempty"`
	// HistoryPart is true in a save whose History starts after turn 0 (a
	// game first saved before histories were kept).
	HistoryPart bool `json:"HistoryPart,omitempty"`
}

// saveState is state as saved; see state for the meaning of each field.
type saveState struct {
	Seed      uint64         `json:"Seed"`
	Depth     int            `json:"Depth"`
	Level     string         `json:"Level"`
	Dark      bool           `json:"Dark"`
	Turn      int            `json:"Turn"`
	Kills     int            `json:"Kills"`
	Map       *saveMap       `json:"Map"`
	Actors    []saveActor    `json:"Actors"`
	Items     []saveItem     `json:"Items"`
	Inventory []saveItem     `json:"Inventory"`
	Log       []saveMessage  `json:"Log"`
	Over      bool           `json:"Over"`
	Won       bool           `json:"Won"`
	Cheated   bool           `json:"Cheated"`
	God       bool           `json:"God"`
	Cause     string         `json:"Cause"`
	XPEarned  int            `json:"XPEarned"`
	CharLevel int            `json:"CharLevel,omitempty"` // 0 or absent: level 1 (saves from before levels)
	XP        int            `json:"PlayerXP,omitempty"`  // absent in saves from before levels
	Seen      []saveSighting `json:"Seen,omitempty"`      // memory of things seen; absent in older saves
	Slain     []saveSlain    `json:"Slain,omitempty"`     // kills by monster; absent in older saves
	Daily     string         `json:"Daily,omitempty"`     // the daily's date; absent for other games
	Known     []string       `json:"Known,omitempty"`     // ItemKind values learned; absent: none
	Called    []saveCalled   `json:"Called,omitempty"`    // names given; absent: none
	Rules     int            `json:"Rules,omitempty"`     // the RulesVersion the game began under; absent: 1
	Played    int            `json:"Played,omitempty"`    // the newest RulesVersion that played it, when newer than Rules; absent: Rules
	Hunger    int            `json:"Hunger,omitempty"`    // nutrition spent; absent in older saves, whose players are full
	Rooms     []saveRoom     `json:"Rooms,omitempty"`     // the level's special rooms; absent in older saves and on levels without
	Wander    int            `json:"Wander,omitempty"`    // turns until the next arrival (wander.go); absent: not drawn yet
}

// saveCalled is a Called as saved.
type saveCalled struct {
	Kind string `json:"Kind"` // an ItemKind value
	Name string `json:"Name"`
}

// saveRoom is a SpecialRoom as saved: its kind's name and its rectangle in tiles.
type saveRoom struct {
	Kind string `json:"Kind"`
	X    int    `json:"X"`
	Y    int    `json:"Y"`
	W    int    `json:"W"`
	H    int    `json:"H"`
}

// saveSlain is a Slain as saved.
type saveSlain struct {
	Name  string `json:"Name"`
	Count int    `json:"Count"`
}

// saveMap is a world.Map as saved: W x H tiles, row-major.
type saveMap struct {
	W        int    `json:"W"`
	H        int    `json:"H"`
	Tiles    []byte `json:"Tiles"` // world.Tile values, base64 in JSON
	Explored []bool `json:"Explored"`
}

// savePos is a world.Pos as saved (and journaled), in tiles.
type savePos struct {
	X int `json:"X"`
	Y int `json:"Y"`
}

// saveActor is an Actor as saved.
type saveActor struct {
	Kind    string       `json:"Kind"`
	Name    string       `json:"Name"`
	Glyph   rune         `json:"Glyph"` // a number: the code point
	Pos     savePos      `json:"Pos"`
	HP      int          `json:"HP"`
	MaxHP   int          `json:"MaxHP"`
	Power   int          `json:"Power"`
	Defense int          `json:"Defense"`
	XP      int          `json:"XP"`
	Vision  int          `json:"Vision"`
	Blocks  bool         `json:"Blocks"`
	AI      uint8        `json:"AI"` // an AI value
	Corpse  bool         `json:"Corpse"`
	Effects []saveEffect `json:"Effects"`
	// Behaviour state, absent in older saves and when zero.
	Hidden  bool       `json:"Hidden,omitempty"`
	Asleep  bool       `json:"Asleep,omitempty"`
	Fleeing bool       `json:"Fleeing,omitempty"`
	Backed  bool       `json:"Backed,omitempty"`
	Unseen  int        `json:"Unseen,omitempty"`
	Loot    []saveItem `json:"Loot,omitempty"`
	Hunting bool       `json:"Hunting,omitempty"` // a monster that arrived (wander.go); absent: false
	Waited  int        `json:"Waited,omitempty"`  // a pack member's turns held off (ai_pack.go); absent: 0
}

// saveEffect is an Effect as saved.
type saveEffect struct {
	Kind      string `json:"Kind"` // an EffectKind value
	TurnsLeft int    `json:"TurnsLeft"`
}

// saveItem is an Item as saved.
type saveItem struct {
	Kind string  `json:"Kind"` // an ItemKind value
	Pos  savePos `json:"Pos"`
	Worn bool    `json:"Worn,omitempty"` // absent in saves from before equipment
	// Charges and Enchant are an item's own charges and enchantment; absent: 0.
	Charges int `json:"Charges,omitempty"`
	Enchant int `json:"Enchant,omitempty"`
	// Letter is a pack item's letter, "a".."z"; absent off the
	// pack and in older saves, whose packs are lettered on loading.
	Letter string `json:"Letter,omitempty"`
}

// saveSighting is a Sighting as saved.
type saveSighting struct {
	Pos     savePos `json:"Pos"`
	Item    string  `json:"Item,omitempty"` // an ItemKind value
	Remains string  `json:"Remains,omitempty"`
	Glyph   rune    `json:"Glyph,omitempty"` // a number: the code point
}

func toSaveSighting(s Sighting) saveSighting {
	return saveSighting{Pos: toSavePos(s.Pos), Item: string(s.Item), Remains: s.Remains, Glyph: s.Glyph}
}

func (s saveSighting) sighting() Sighting {
	return Sighting{Pos: s.Pos.pos(), Item: ItemKind(s.Item), Remains: s.Remains, Glyph: s.Glyph}
}

// saveMessage is a Message as saved.
type saveMessage struct {
	Text  string `json:"Text"`
	Kind  uint8  `json:"Kind"` // a MsgKind value
	Count int    `json:"Count"`
	Turn  int    `json:"Turn"`
}

// convert maps in through f, keeping nil apart from empty: a save's null
// and [] must both come back as they were, so that a decoded save encodes
// to the same bytes.
func convert[T, U any](in []T, f func(T) U) []U {
	if in == nil {
		return nil
	}
	out := make([]U, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}

func toSavePos(p world.Pos) savePos { return savePos{X: p.X, Y: p.Y} }
func (p savePos) pos() world.Pos    { return world.Pos{X: p.X, Y: p.Y} }
func toSaveItem(it Item) saveItem {
	s := saveItem{Kind: string(it.Kind), Pos: toSavePos(it.Pos), Worn: it.Worn, Charges: it.Charges, Enchant: it.Enchant}
	if it.Letter != 0 {
		s.Letter = string(it.Letter)
	}
	return s
}
func (it saveItem) item() Item {
	out := Item{Kind: ItemKind(it.Kind), Pos: it.Pos.pos(), Worn: it.Worn, Charges: it.Charges, Enchant: it.Enchant}
	if r := []rune(it.Letter); len(r) == 1 {
		out.Letter = r[0]
	} else if len(r) > 1 {
		out.Letter = -1 // not a letter: validate refuses it
	}
	return out
}
func toSaveEffect(e Effect) saveEffect {
	return saveEffect{Kind: string(e.Kind), TurnsLeft: e.TurnsLeft}
}
func (e saveEffect) effect() Effect { return Effect{Kind: EffectKind(e.Kind), TurnsLeft: e.TurnsLeft} }

func toSaveMessage(m Message) saveMessage {
	return saveMessage{Text: m.Text, Kind: uint8(m.Kind), Count: m.Count, Turn: m.Turn}
}

func (m saveMessage) message() Message {
	return Message{Text: m.Text, Kind: MsgKind(m.Kind), Count: m.Count, Turn: m.Turn}
}

func toSaveActor(a Actor) saveActor {
	return saveActor{Kind: a.Kind, Name: a.Name, Glyph: a.Glyph, Pos: toSavePos(a.Pos), HP: a.HP, MaxHP: a.MaxHP,
		Power: a.Power, Defense: a.Defense, XP: a.XP, Vision: a.Vision, Blocks: a.Blocks, AI: uint8(a.AI),
		Corpse: a.Corpse, Effects: convert(a.Effects, toSaveEffect),
		Hidden: a.Hidden, Asleep: a.Asleep, Fleeing: a.Fleeing, Backed: a.Backed, Unseen: a.Unseen,
		Loot: convert(a.Loot, toSaveItem), Hunting: a.Hunting, Waited: a.Waited}
}

func (a saveActor) actor() Actor {
	return Actor{Kind: a.Kind, Name: a.Name, Glyph: a.Glyph, Pos: a.Pos.pos(), HP: a.HP, MaxHP: a.MaxHP,
		Power: a.Power, Defense: a.Defense, XP: a.XP, Vision: a.Vision, Blocks: a.Blocks, AI: AI(a.AI),
		Corpse: a.Corpse, Effects: convert(a.Effects, saveEffect.effect),
		Hidden: a.Hidden, Asleep: a.Asleep, Fleeing: a.Fleeing, Backed: a.Backed, Unseen: a.Unseen,
		Loot: convert(a.Loot, saveItem.item), Hunting: a.Hunting, Waited: a.Waited}
}

func toSaveMap(m *world.Map) *saveMap {
	if m == nil {
		return nil
	}
	return &saveMap{W: m.W, H: m.H, Tiles: convert(m.Tiles, func(t world.Tile) byte { return byte(t) }), Explored: m.Explored}
}

func (m *saveMap) worldMap() *world.Map {
	if m == nil {
		return nil
	}
	return &world.Map{W: m.W, H: m.H, Tiles: convert(m.Tiles, func(b byte) world.Tile { return world.Tile(b) }), Explored: m.Explored}
}

// toSave returns s in its saved form. The result shares Explored with s, so
// it is only for encoding at once.
func (s *state) toSave() saveState {
	return saveState{Seed: s.Seed, Depth: s.Depth, Level: s.Level, Dark: s.Dark, Turn: s.Turn, Kills: s.Kills,
		Map: toSaveMap(s.Map), Actors: convert(s.Actors, toSaveActor), Items: convert(s.Items, toSaveItem),
		Inventory: convert(s.Inventory, toSaveItem), Log: convert(s.Log, toSaveMessage), Over: s.Over, Won: s.Won,
		Cheated: s.Cheated, God: s.God, Cause: s.Cause, XPEarned: s.XPEarned,
		CharLevel: s.CharLevel, XP: s.XP, Seen: convert(s.Seen, toSaveSighting),
		Slain: convert(s.Slain, func(k Slain) saveSlain { return saveSlain(k) }), Daily: s.Daily,
		Known:  convert(s.Known, func(k ItemKind) string { return string(k) }),
		Called: convert(s.Called, func(c Called) saveCalled { return saveCalled{Kind: string(c.Kind), Name: c.Name} }),
		Hunger: s.Hunger, Rules: s.Rules, Played: s.Played, Wander: s.Wander,
		Rooms: convert(s.Rooms, func(r SpecialRoom) saveRoom { return saveRoom(r) })}
}

// state returns the in-memory state of a decoded save (not yet validated).
func (s *saveState) state() state {
	return state{Seed: s.Seed, Depth: s.Depth, Level: s.Level, Dark: s.Dark, Turn: s.Turn, Kills: s.Kills,
		Map: s.Map.worldMap(), Actors: convert(s.Actors, saveActor.actor), Items: convert(s.Items, saveItem.item),
		Inventory: convert(s.Inventory, saveItem.item), Log: convert(s.Log, saveMessage.message), Over: s.Over, Won: s.Won,
		Cheated: s.Cheated, God: s.God, Cause: s.Cause, XPEarned: s.XPEarned,
		CharLevel: s.CharLevel, XP: s.XP, Seen: convert(s.Seen, saveSighting.sighting),
		Slain: convert(s.Slain, func(k saveSlain) Slain { return Slain(k) }), Daily: s.Daily,
		Known:  convert(s.Known, func(k string) ItemKind { return ItemKind(k) }),
		Called: convert(s.Called, func(c saveCalled) Called { return Called{Kind: ItemKind(c.Kind), Name: c.Name} }),
		Hunger: s.Hunger, Rules: s.Rules, Played: s.Played, Wander: s.Wander,
		Rooms: convert(s.Rooms, func(r saveRoom) SpecialRoom { return SpecialRoom(r) })}
}
