package game

import (
	"errors"

	"github.com/grotto-game/grotto/game/world"
)

// Action is what a command asks the player to do.
type Action uint8

// The actions a player can take. Zero is not an action.
const (
	ActMove    Action = iota + 1 // step by (DX, DY), or attack what stands there
	ActWait                      // let a turn pass
	ActDescend                   // take the down stairs under the player
	ActPickUp                    // pick up the item under the player
	ActUse                       // use (quaff, read) inventory slot Item, at Target if it needs one
	ActDrop                      // drop inventory slot Item
	ActThrow                     // throw inventory slot Item at Target
	ActCheat                     // an admin cheat (see Cheat)
	ActLevelUp                   // spend a waiting level-up on Stat (growth.go); takes no turn
	ActCall                      // call the unknown kind of inventory slot Item by Name (identify.go); takes no turn
	ActSearch                    // search the eight tiles round the player for hidden traps and doors (special.go); one turn
)

// Command is one player input to the core: a small value, so that a game is
// its seed plus a list of commands.
type Command struct {
	Action Action
	DX, DY int       // for ActMove: the step, each in -1..1
	Item   int       // for ActUse, ActDrop, ActThrow: inventory slot, 0 = 'a'
	Target world.Pos // for ActUse of a targeted item and ActThrow: the tile aimed at
	Cheat  Cheat     // for ActCheat
	Kind   ItemKind  // for ActCheat CheatCreate: the item to make
	Stat   Stat      // for ActLevelUp: what to raise
	Name   string    // for ActCall: the name, SanitizeCall's form ("" forgets it)
}

// Move returns the command to step (or bump-attack) by dx, dy tiles.
func Move(dx, dy int) Command { return Command{Action: ActMove, DX: dx, DY: dy} }

// Wait returns the command to pass one turn.
func Wait() Command { return Command{Action: ActWait} }

// Search returns the command to spend a turn searching the tiles round the
// player for hidden traps and secret doors.
func Search() Command { return Command{Action: ActSearch} }

// Descend returns the command to take the down stairs.
func Descend() Command { return Command{Action: ActDescend} }

// PickUp returns the command to pick up the item under the player.
func PickUp() Command { return Command{Action: ActPickUp} }

// Use returns the command to use inventory slot item, aimed at target (which
// items without targeting ignore).
func Use(item int, target world.Pos) Command {
	return Command{Action: ActUse, Item: item, Target: target}
}

// Drop returns the command to drop inventory slot item.
func Drop(item int) Command { return Command{Action: ActDrop, Item: item} }

// Throw returns the command to throw inventory slot item at target.
func Throw(item int, target world.Pos) Command {
	return Command{Action: ActThrow, Item: item, Target: target}
}

// Impossible is returned by Apply for a command that cannot happen; it costs no
// turn and changes nothing. Its text is meant for the player (the tutorials'
// ImpossibleException).
type Impossible struct{ Msg string }

func (e *Impossible) Error() string { return e.Msg }

// ErrGameOver is returned by Apply once the player is dead.
var ErrGameOver = errors.New("the game is over")

// Result tells the caller what a turn did that it may want to act on (save on
// a level change, show the death screen, tell the events feed).
type Result struct {
	Descended bool // the player reached a new depth
	Died      bool // the player died this turn
	Won       bool // the player took the last stairs out of the grotto
	// Slain holds the kinds (content.Monster.ID) of the monsters the
	// player killed this turn, in the order they died; nil for none.
	Slain []string
	// Level is the character level a level-up chosen this command
	// reached (LevelUp), 0 when the level did not change.
	Level int
}
