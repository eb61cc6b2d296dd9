"""Rule models: YAML -> validated, frozen objects; worked examples; house rules as given."""
