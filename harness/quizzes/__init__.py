"""The quizzes' questions, one data module per lesson (`lesson03.py` holds lesson 03's).

Each module defines `QUESTIONS`, a list of `harness.quiz.Question`: the right option and the wrong
ones, each with the explanation a student reads after picking it. The lesson's cell is `quiz("03")`.
"""
