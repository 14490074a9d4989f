from grades.marks import PASS_MARK, passed


def test_a_mark_above_the_pass_mark_passes():
    assert passed(PASS_MARK + 3)


def test_the_pass_mark_itself_passes():
    assert passed(PASS_MARK)


def test_one_below_the_pass_mark_fails():
    assert not passed(PASS_MARK - 1)
