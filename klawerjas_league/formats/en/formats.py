"""English date and number formats as written in South Africa (en-ZA; Django's ``en`` is American).

Dates ``24 November 2026``, short ``2026/11/24``, the 24-hour clock ``19:30``; the week starts on Monday.
The decimal point and a comma between thousands stay as South African English is commonly written (and as
the pages and downloads have always shown them), although CLDR's en-ZA now gives a decimal comma.
"""

DATE_FORMAT = "j F Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j F Y H:i"
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "j F"
SHORT_DATE_FORMAT = "Y/m/d"
SHORT_DATETIME_FORMAT = "Y/m/d H:i"
FIRST_DAY_OF_WEEK = 1
DATE_INPUT_FORMATS = ["%Y-%m-%d", "%Y/%m/%d", "%d/%m/%Y", "%d %B %Y", "%d %b %Y"]
TIME_INPUT_FORMATS = ["%H:%M:%S", "%H:%M"]
DATETIME_INPUT_FORMATS = ["%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y/%m/%d %H:%M", "%d/%m/%Y %H:%M"]
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
