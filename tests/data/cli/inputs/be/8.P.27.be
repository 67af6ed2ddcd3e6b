elections|nils|gen
arrested|NIL|gen
arrest|nil|gen
Economy| leading space|nil
arrested|court|nil
