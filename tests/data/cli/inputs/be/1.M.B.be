the big courts|ruled|nn
is|nils|obj
geese|was|gen
generals|vote|nn
voted|agreement|nil
generals|U.S.|mod
election| leading space|mod
generals|U.S.|mod
new york|judge|nil
general|is|pcomp-n
vote|is|pcomp-n
election|nil|nil
