package game

import (
	"slices"

	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/world"
)

// AI names how an actor decides its turn.
type AI uint8

// The behaviours an actor can have. The values are saved: new ones go at
// the end (those after AIHerbivore came when monsters got behaviours; each
// has its rule in an ai_*.go file).
const (
	AINone      AI = iota // the player, corpses: never acts on its own
	AIHostile             // chases the player while it sees them, attacks when adjacent
	AIHerbivore           // flees the player while it sees them, never attacks
	AIRanged              // keeps 2–5 tiles away and shoots along a clear line (ai_ranged.go)
	AICoward              // flees below a third of its HP, comes back healed (ai_coward.go)
	AIPack                // hangs back until its pack is near, then surrounds (ai_pack.go)
	AILurker              // waits unseen until the player is within 2 tiles (ai_lurker.go)
	AIBreeder             // splits into a free tile now and then (ai_breeder.go)
	AIThief               // steals an item on a hit and runs off with it (ai_thief.go)
	AISleeper             // starts asleep, wakes on noise or sight (ai_sleeper.go)
)

// aiOf maps the data's behaviour name to the core's.
func aiOf(c content.AI) AI {
	switch c {
	case content.AIHerbivore:
		return AIHerbivore
	case content.AIRanged:
		return AIRanged
	case content.AICoward:
		return AICoward
	case content.AIPack:
		return AIPack
	case content.AILurker:
		return AILurker
	case content.AIBreeder:
		return AIBreeder
	case content.AIThief:
		return AIThief
	case content.AISleeper:
		return AISleeper
	}
	return AIHostile
}

// Attacks reports whether an actor with this behaviour ever attacks the
// player: every behaviour but AINone and AIHerbivore (bats only flee).
func (ai AI) Attacks() bool { return ai != AINone && ai != AIHerbivore }

// Actor is anything that takes turns on the map: the player, a monster, or
// what is left of one (a corpse: not blocking, no AI).
type Actor struct {
	Kind    string    // "player" or a monster id of package content ("orc"); the UI picks colours by it
	Name    string    // what messages call it, lower case: "orc"
	Glyph   rune      // map symbol
	Pos     world.Pos // tile position
	HP      int       // hit points now
	MaxHP   int       // hit points when unhurt
	Power   int       // attack strength; damage dealt = power − target's defense
	Defense int       // subtracted from every hit taken
	XP      int       // experience points its death is worth
	Vision  int       // how far it sees, in tiles
	Blocks  bool      // whether it occupies its tile (false for corpses)
	AI      AI
	Corpse  bool
	Effects []Effect // timed effects in the order they began

	// Behaviour state; all zero for the player and for monsters of saves
	// from before behaviours.
	Hidden  bool   // a lurker not yet sprung: not drawn, listed or described
	Asleep  bool   // a sleeper not yet woken
	Fleeing bool   // a coward running until healed, or a thief running with its loot
	Backed  bool   // a ranged monster stepped back last turn (it stands and fights this one)
	Unseen  int    // turns in a row a fleeing thief has been out of the player's sight
	Loot    []Item // what a thief stole, dropped where it dies
	Hunting bool   // a monster that arrived (wander.go), or one hurt by the player: walks toward the player unseen until it sees them
	Waited  int    // turns a pack member has held off in sight of the player (ai_pack.go)
}

// Alive reports whether a is a living actor rather than remains.
func (a *Actor) Alive() bool { return !a.Corpse && a.HP > 0 }

// Player numbers (python-tcod tutorial): 30 HP, 5 power, 2 defense, and a
// torch of range 8 and colour (1.0, 1.0, 0.5) (bracket-lib, "Lighting").
const (
	PlayerHP         = 30
	PlayerPower      = 5
	PlayerDefense    = 2
	PlayerTorchRange = 8
)

// PlayerTorch is the colour of the player's torch, 0..1 per channel.
var PlayerTorch = [3]float64{1.0, 1.0, 0.5}

// newPlayer returns the player at p.
func newPlayer(p world.Pos) Actor {
	return Actor{Kind: "player", Name: "player", Glyph: '@', Pos: p, HP: PlayerHP, MaxHP: PlayerHP,
		Power: PlayerPower, Defense: PlayerDefense, Vision: FOVRadius, Blocks: true}
}

// newMonster returns a monster of kind k, from the data tables, at p.
func newMonster(k content.Monster, p world.Pos) Actor {
	ai := aiOf(k.AI)
	return Actor{Kind: k.ID, Name: k.Name, Glyph: k.Glyph, Pos: p, HP: k.HP, MaxHP: k.HP,
		Power: k.Power, Defense: k.Defense, XP: k.XP, Vision: k.Vision, Blocks: true, AI: ai,
		Hidden: ai == AILurker, Asleep: ai == AISleeper}
}

// clone returns a copy of a that shares no slice with it.
func (a Actor) clone() Actor {
	a.Effects = slices.Clone(a.Effects)
	a.Loot = slices.Clone(a.Loot)
	return a
}
