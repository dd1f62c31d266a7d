"""Three-player Kuhn poker with every card active (Szafron, Gibson and Sturtevant, AAMAS 2013, section 2)."""
