from greetings.names import letter_name


def test_a_name_is_printed_in_title_case():
    assert letter_name("ada lovelace") == "Ada Lovelace"


def test_extra_spaces_are_removed():
    assert letter_name("  grace   hopper ") == "Grace Hopper"
