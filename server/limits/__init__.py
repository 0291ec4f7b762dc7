"""Limits on clients: token buckets per connection and address, admission per address."""
