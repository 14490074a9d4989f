# Present so pytest treats this folder as the task's root: tests import its packages from here.
