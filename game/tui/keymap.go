package tui

import (
	"strings"
	"unicode/utf8"

	"github.com/grotto-game/grotto/game/world"
)

// This file is the key map of the play and aiming screens: each binding is
// one line of the help screen and the keys it names, so a key cannot work
// without its help line, nor a help line exist without its keys (bubbles'
// key.Binding with Help(), kept to what grotto needs).

// action is what a bound key does.
type action uint8

// The actions of the play screen, then of the aiming cursor.
const (
	actMove    action = iota + 1 // step (or attack) by the key's dir
	actWait                      // let a turn pass
	actDescend                   // take the stairs down
	actAscend                    // say why there is no way up
	actPickUp                    // pick up the item underfoot
	actUse                       // the inventory, to use an item
	actQuaff                     // the inventory, potions only
	actRead                      // the inventory, scrolls only
	actDrop                      // the inventory, to drop an item
	actThrow                     // the inventory, to throw an item
	actLook                      // the cursor, only to look
	actLog                       // the message log
	actHelp                      // the help screen
	actSave                      // save and leave
	actCheat                     // the admins' cheat menu
	actOptions                   // the settings screen: symbols and colour
	actAim                       // aiming: move the cursor by dir (Shift ×5, Ctrl ×10, Alt ×20)
	actFire                      // aiming: confirm the target
	actCancel                    // aiming: leave at no cost
	actTravel                    // walk to the down stairs seen (travel.go)
	actExplore                   // walk to what is not explored yet (travel.go)
	actCall                      // the inventory, to call an unknown kind by a name
	actRest                      // wait until healed (rest.go)
	actGoto                      // look mode: travel to the cursor (travel.go)
	actSearch                    // search round the player for hidden traps and doors
	actChat                      // say a line in the game's chat (chat.go)
)

// boundKey is one key and what it does.
type boundKey struct {
	name string    // the press as Bubble Tea names it: tea.KeyPressMsg.String()
	act  action    // what it does
	dir  world.Pos // for actMove and actAim: the step, one tile each way at most
}

// binding is one line of the help screen: the keys as help names them, what
// they do, and the keys themselves.
type binding struct {
	label string // the keys, as the help screen names them
	help  string // what they do
	keys  []boundKey
	admin bool // only with admin rights: listed and working only then
}

// keyMap is one screen's bindings, in the order the help screen lists them.
type keyMap []binding

// keyMaps are the bindings of a session: the play screen's and the aiming
// cursor's. They are built per session (no package-level state).
type keyMaps struct {
	play keyMap
	aim  keyMap
}

// find returns the binding of the key named name and what the key does.
func (km keyMap) find(name string) (binding, boundKey, bool) {
	for _, b := range km {
		for _, k := range b.keys {
			if k.name == name {
				return b, k, true
			}
		}
	}
	return binding{}, boundKey{}, false
}

// dirKey is a movement key and its step.
type dirKey struct {
	name string
	dir  world.Pos
}

// moves returns the keys of groups, each doing act one step in its direction.
func moves(act action, groups ...[]dirKey) []boundKey {
	var out []boundKey
	for _, g := range groups {
		for _, k := range g {
			out = append(out, boundKey{name: k.name, act: act, dir: k.dir})
		}
	}
	return out
}

// boundKeys is every session's key maps: built once and never written
// after, so each model shares it (about 9 KiB a session held a copy of).
var boundKeys = newKeyMaps()

// newKeyMaps builds the key maps. Movement: arrows, vi-keys (hjklyubn) and
// the number pad, whose keys arrive as digits with NumLock on and as arrows,
// Home/End/PgUp/PgDn and Begin with it off (Bubble Tea names a keypad key
// as its main-keyboard twin, never "kp8").
func newKeyMaps() keyMaps {
	n, s, w, e := world.Pos{Y: -1}, world.Pos{Y: 1}, world.Pos{X: -1}, world.Pos{X: 1}
	nw, ne, sw, se := world.Pos{X: -1, Y: -1}, world.Pos{X: 1, Y: -1}, world.Pos{X: -1, Y: 1}, world.Pos{X: 1, Y: 1}
	one := func(name string, act action) boundKey { return boundKey{name: name, act: act} }
	straight := []dirKey{{"up", n}, {"k", n}, {"down", s}, {"j", s}, {"left", w}, {"h", w}, {"right", e}, {"l", e}}
	diagonal := []dirKey{{"y", nw}, {"u", ne}, {"b", sw}, {"n", se}, {"home", nw}, {"pgup", ne}, {"end", sw}, {"pgdown", se}}
	numpad := []dirKey{{"8", n}, {"2", s}, {"4", w}, {"6", e}, {"7", nw}, {"9", ne}, {"1", sw}, {"3", se}}
	play := keyMap{
		{label: "arrows, h j k l", help: "move or attack (bump into a monster)", keys: moves(actMove, straight)},
		{label: "y u b n", help: "move diagonally (also Home PgUp End PgDn)", keys: moves(actMove, diagonal)},
		{label: "numpad 1-9", help: "move (5 waits)", keys: moves(actMove, numpad)},
		{label: ". 5 or Space", help: "wait a turn", keys: []boundKey{one(".", actWait), one("5", actWait), one("begin", actWait), one("space", actWait)}},
		{label: "R", help: "rest until healed (stops on a monster, a blow or hunger)", keys: []boundKey{one("R", actRest)}},
		{label: "s", help: "search around you for hidden traps and doors (a turn)", keys: []boundKey{one("s", actSearch)}},
		{label: "> or <", help: "take the stairs down (there is no way back up)", keys: []boundKey{one(">", actDescend), one("<", actAscend)}},
		{label: "_ / x", help: "travel to the stairs seen (also >) / explore", keys: []boundKey{one("_", actTravel), one("x", actExplore)}},
		{label: "g or ,", help: "pick up the item here", keys: []boundKey{one("g", actPickUp), one(",", actPickUp)}},
		{label: "i / q / r", help: "use or wear an item / quaff a potion / read a scroll", keys: []boundKey{one("i", actUse), one("q", actQuaff), one("r", actRead)}},
		{label: "d / t", help: "drop / throw an item", keys: []boundKey{one("d", actDrop), one("t", actThrow)}},
		{label: "C", help: "call an unknown potion, scroll or wand by a name", keys: []boundKey{one("C", actCall)}},
		{label: "/ or ;", help: "look around (cursor; Esc leaves)", keys: []boundKey{one("/", actLook), one(";", actLook)}},
		{label: "v", help: "message log (Tab: the chat)", keys: []boundKey{one("v", actLog)}},
		{label: "?", help: "this help", keys: []boundKey{one("?", actHelp)}},
		{label: "O", help: "settings: symbols, colour and chat", keys: []boundKey{one("O", actOptions)}},
		{label: `"`, help: "chat: say a line to your watchers (Enter sends)", keys: []boundKey{one(`"`, actChat)}},
		{label: "S or Ctrl+C", help: "save and leave (come back with the same key)", keys: []boundKey{one("S", actSave), one("ctrl+c", actSave)}},
		{label: `\`, help: "cheat menu (admins)", keys: []boundKey{one(`\`, actCheat)}, admin: true},
	}
	aim := keyMap{
		{label: "move keys", help: "move the cursor; Shift x5, Ctrl x10, Alt x20", keys: moves(actAim, straight, diagonal, numpad)},
		{label: "Enter . 5 Space", help: "fire at the cursor (or click it)", keys: []boundKey{
			one("enter", actFire), one(".", actFire), one("5", actFire), one("space", actFire)}},
		{label: "_ (looking)", help: "travel to the cursor along a known way (Enter too)", keys: []boundKey{one("_", actGoto)}},
		{label: "Esc or q", help: "stop aiming, at no cost", keys: []boundKey{one("esc", actCancel), one("q", actCancel)}},
	}
	return keyMaps{play: play, aim: aim}
}

// keyName names key (a tea.KeyPressMsg's String: "enter", "ctrl+t", "f5")
// as the help and key caps do: "Enter", "Ctrl+t", "F5"; a character stays
// as typed ("Z", "é").
func keyName(key string) string {
	parts := strings.Split(key, "+")
	for i, p := range parts {
		if utf8.RuneCountInString(p) > 1 && p[0] >= 'a' && p[0] <= 'z' {
			parts[i] = strings.ToUpper(p[:1]) + p[1:]
		}
	}
	return strings.Join(parts, "+")
}
