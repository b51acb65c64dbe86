package mapgen

import "math/rand/v2"

// LastDepth is the deepest level: its down stairs lead out of the grotto and
// win the game.
const LastDepth = 6

// ForDepth returns the builder chain of a depth:
//   - 1: rooms and corridors;
//   - 2: cellular-automata caves;
//   - 3: the limestone caverns: drunkard's walk (winding passages) → start at
//     the centre → cull unreachable → start at the left centre → Voronoi
//     spawning → distant exit → cave decorator, lit only by torches;
//   - 4–5: a random chain;
//   - 6 (LastDepth): decorated caves in the dark, whose exit is the way out.
//
// Every level below the first gets up stairs where the player arrives, and
// every level ends with SpecialRooms and ScatterTraps.
func ForDepth(depth int, rng *rand.Rand) *Chain {
	var c *Chain
	switch {
	case depth <= 1:
		return StartWith("Rooms and Corridors", DefaultRooms()).With(SpecialRooms{Depth: depth}).With(ScatterTraps{Depth: depth})
	case depth == 2:
		c = StartWith("Caves", CellularAutomata{}).
			With(AreaStartingPosition{XCenter, YCenter}).
			With(CullUnreachable{}).
			With(VoronoiSpawning{}).
			With(DistantExit{})
	case depth == 3:
		c = LimestoneCaverns()
	case depth >= LastDepth:
		c = StartWith("The Sunless Sea", CellularAutomata{}).
			With(AreaStartingPosition{XLeft, YCenter}).
			With(CullUnreachable{}).
			With(VoronoiSpawning{}).
			With(DistantExit{}).
			With(CaveDecorator{}).
			With(Dark{})
	default:
		c = randomChain(rng)
	}
	return c.With(UpStairsAtStart{}).With(SpecialRooms{Depth: depth}).With(ScatterTraps{Depth: depth})
}

// LimestoneCaverns is depth 3's chain, step for step as in the bracket-lib
// tutorial's chapter.
func LimestoneCaverns() *Chain {
	return StartWith("Limestone Caverns", WindingPassages()).
		With(AreaStartingPosition{XCenter, YCenter}).
		With(CullUnreachable{}).
		With(AreaStartingPosition{XLeft, YCenter}).
		With(VoronoiSpawning{}).
		With(DistantExit{}).
		With(CaveDecorator{}).
		With(Dark{})
}

// randomChain picks an initial builder and a starting corner at random and
// finishes the level as the caves are finished.
func randomChain(rng *rand.Rand) *Chain {
	switch rng.IntN(4) {
	case 0:
		return StartWith("Rooms and Corridors", DefaultRooms())
	case 1:
		return caveChain("Caves", CellularAutomata{}, rng)
	case 2:
		return caveChain("Open Cavern", OpenArea(), rng)
	default:
		return caveChain("Winding Passages", WindingPassages(), rng)
	}
}

func caveChain(name string, initial InitialBuilder, rng *rand.Rand) *Chain {
	return StartWith(name, initial).
		With(AreaStartingPosition{XCenter, YCenter}).
		With(CullUnreachable{}).
		With(AreaStartingPosition{XStart(rng.IntN(3)), YStart(rng.IntN(3))}).
		With(VoronoiSpawning{}).
		With(DistantExit{})
}
