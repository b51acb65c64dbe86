package game

// This file is the journal codec: a command as the few bytes written after
// every turn, and Replay, which plays a journal onto the save it follows.

import (
	"encoding/json"
	"fmt"
)

// commandJSON is a Command in the journal: short field names, zero fields
// left out.
type commandJSON struct {
	A  Action   `json:"a"`
	DX int      `json:"dx,omitempty"`
	DY int      `json:"dy,omitempty"`
	I  int      `json:"i,omitempty"`
	T  savePos  `json:"t,omitzero"`
	C  Cheat    `json:"c,omitempty"`
	K  ItemKind `json:"k,omitempty"`
	S  Stat     `json:"s,omitempty"`
	N  string   `json:"n,omitempty"` // ActCall's name
}

// EncodeCommand returns c as a journal entry (a few dozen bytes of JSON),
// keeping only the fields its action reads (see Normalized).
func EncodeCommand(c Command) []byte {
	c = c.Normalized()
	b, _ := json.Marshal(commandJSON{A: c.Action, DX: c.DX, DY: c.DY, I: c.Item, T: toSavePos(c.Target), C: c.Cheat, K: c.Kind, S: c.Stat, N: c.Name})
	return b
}

// Normalized returns c with the fields its action does not read set to
// zero: the same command, as Apply sees it.
func (c Command) Normalized() Command {
	n := Command{Action: c.Action}
	switch c.Action {
	case ActMove:
		n.DX, n.DY = c.DX, c.DY
	case ActUse, ActThrow:
		n.Item, n.Target = c.Item, c.Target
	case ActDrop:
		n.Item = c.Item
	case ActLevelUp:
		n.Stat = c.Stat
	case ActCall:
		n.Item, n.Name = c.Item, c.Name
	case ActCheat:
		n.Cheat = c.Cheat
		if c.Cheat == CheatCreate {
			n.Kind = c.Kind
		}
	}
	return n
}

// DecodeCommand reads a journal entry made by EncodeCommand. Bytes that are
// not one return an error wrapping ErrCorruptSave.
func DecodeCommand(b []byte) (Command, error) {
	var j commandJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return Command{}, fmt.Errorf("%w: journal entry: %v", ErrCorruptSave, err)
	}
	return Command{Action: j.A, DX: j.DX, DY: j.DY, Item: j.I, Target: j.T.pos(), Cheat: j.C, Kind: j.K, Stat: j.S, Name: j.N}, nil
}

// Replay applies journaled commands to g in order. Every command in a
// journal happened, so one that is refused, or a game that ended before the
// journal did, means the journal does not belong to this save: it returns
// an error wrapping ErrCorruptSave, naming the entry.
func (g *Game) Replay(cmds []Command) error {
	for i, c := range cmds {
		if g.s.Over {
			return fmt.Errorf("%w: journal entry %d after the game ended", ErrCorruptSave, i)
		}
		if _, err := g.Apply(c); err != nil {
			return fmt.Errorf("%w: journal entry %d (%+v): %v", ErrCorruptSave, i, c, err)
		}
	}
	return nil
}
