package game

// This file is the pack's letters and stacks. Every item in the pack has a
// letter, a–z (Item.Letter, saved), that stays with it while it is in the
// pack, as in NetHack: when a stack runs out its letter is free, and no
// other letter moves. Items that stack (sameStack: three health potions)
// share one letter and are listed as one line, "3 health potions". The
// inventory stays one item per slot (saves, commands and the 26-item limit
// are unchanged): a command addresses a slot, exact for replays, and a
// command on a stack takes one item of it.

import (
	"fmt"
	"slices"
)

// Stack is a group of items in the pack that share a letter: items of the
// same kind, held the same way (see sameStack).
type Stack struct {
	Kind   ItemKind
	Slots  []int // inventory slots (0 = first item), ascending; never empty
	Letter rune  // the letter the player chooses it by, 'a'..'z'
}

// Slot returns the inventory slot a command on the stack addresses: its
// last, the item that joined it last.
func (s Stack) Slot() int { return s.Slots[len(s.Slots)-1] }

// Count returns how many items the stack holds.
func (s Stack) Count() int { return len(s.Slots) }

// Stacks returns the pack as stacks, in the order of their letters (NetHack
// lists its pack by letter).
func (g *Game) Stacks() []Stack {
	var out []Stack
	for i, it := range g.s.Inventory {
		j := slices.IndexFunc(out, func(s Stack) bool { return s.Letter == it.Letter })
		if j < 0 {
			out = append(out, Stack{Kind: it.Kind, Letter: it.Letter})
			j = len(out) - 1
		}
		out[j].Slots = append(out[j].Slots, i)
	}
	slices.SortFunc(out, func(a, b Stack) int { return int(a.Letter) - int(b.Letter) })
	return out
}

// Stack returns the stack under letter, or false when no item has it.
func (g *Game) Stack(letter rune) (Stack, bool) {
	for _, s := range g.Stacks() {
		if s.Letter == letter {
			return s, true
		}
	}
	return Stack{}, false
}

// sameStack reports whether items a and b stack: the same kind, both worn
// or both carried, with the same charges and enchantment (two
// wands of different charges are two lines). It is the one place that says
// so.
func sameStack(a, b Item) bool {
	return a.Kind == b.Kind && a.Worn == b.Worn && a.Charges == b.Charges && a.Enchant == b.Enchant
}

// freeLetter returns the first letter no item in the pack has, or 0 when
// all 26 are taken (then the pack is full: every letter has an item).
func (g *Game) freeLetter() rune {
	for l := 'a'; l <= 'z'; l++ {
		if !slices.ContainsFunc(g.s.Inventory, func(it Item) bool { return it.Letter == l }) {
			return l
		}
	}
	return 0
}

// addToPack puts it in the pack, which must have room: under the letter of
// the first stack (in slot order) it stacks with, else under the first free
// letter.
func (g *Game) addToPack(it Item) {
	it.Letter = 0
	if j := slices.IndexFunc(g.s.Inventory, func(o Item) bool { return sameStack(o, it) }); j >= 0 {
		it.Letter = g.s.Inventory[j].Letter
	} else {
		it.Letter = g.freeLetter()
	}
	g.s.Inventory = append(g.s.Inventory, it)
}

// restack is told that pack slot i changed (worn or taken off, zapped,
// enchanted): if it no longer stacks with the others of its letter, it
// leaves them for the first free letter, and they keep theirs. Alone under
// its letter, it keeps it.
func (g *Game) restack(i int) {
	inv := g.s.Inventory
	for j := range inv {
		if j != i && inv[j].Letter == inv[i].Letter && !sameStack(inv[j], inv[i]) {
			inv[i].Letter = g.freeLetter()
			return
		}
	}
}

// letterPack gives the items of a pack saved before letters their letters
// in the order that pack listed its stacks (each stack under the letter of
// its place, stacks in the order their first item came): the letters its
// player saw.
func letterPack(inv []Item) {
	next := 'a'
	for i := range inv {
		if j := slices.IndexFunc(inv[:i], func(o Item) bool { return sameStack(o, inv[i]) }); j >= 0 {
			inv[i].Letter = inv[j].Letter
		} else {
			inv[i].Letter, next = next, next+1
		}
	}
}

// checkLetters refuses a decoded pack whose letters are not a–z, or whose
// items under one letter do not stack; a pack without letters (an older
// save) is given them first (letterPack).
func checkLetters(inv []Item) error {
	if !slices.ContainsFunc(inv, func(it Item) bool { return it.Letter != 0 }) {
		letterPack(inv)
	}
	for i, it := range inv {
		if it.Letter == 0 {
			return fmt.Errorf("%s in the pack has no letter, beside others that have", it.Kind)
		}
		if it.Letter < 'a' || it.Letter > 'z' || slices.ContainsFunc(inv[:i], func(o Item) bool {
			return o.Letter == it.Letter && !sameStack(o, it)
		}) {
			return fmt.Errorf("%s in the pack under letter %q, which does not fit it", it.Kind, it.Letter)
		}
	}
	return nil
}
