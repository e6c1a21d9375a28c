"""Tests for the TOML content-pack loader (hsm_tui.packs)."""
