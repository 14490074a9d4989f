"""Exam results."""
