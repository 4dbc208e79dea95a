"""The judge layer: a model reads the whole skill and rates four dimensions of seed 002 against
their anchored rubrics, quoting the skill as evidence; several independent judgements are
checked, combined and compared (``layer``). Loaded only at a depth that runs it."""
