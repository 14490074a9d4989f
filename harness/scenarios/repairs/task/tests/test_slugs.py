from slugs.slugify import slug


def test_words_are_joined_by_hyphens():
    assert slug("Blue Mug") == "blue-mug"


def test_a_one_word_title_is_its_slug():
    assert slug("Teapot") == "teapot"
