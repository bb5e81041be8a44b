# كلمات Palaver الخاصة على بطاقات الأسئلة وملخصاتها وعلى الساعة.

## البطاقة
question = سؤال
submit = إرسال
skip = تخطٍّ
cancel = إلغاء
confirm = تأكيد
other = غير ذلك
your-own-answer = إجابتك الخاصة
choose-one = اختر إجابة واحدة
choose-exactly = اختر { $count }
choose-range = اختر من { $min } إلى { $max }
choose-any = اختر واحدة أو أكثر
search-options = ابحث في الخيارات
approval-needed = يلزم الإذن لـ
on-server = على خادم MCP
asked-by = يسأل خادم MCP
link-opens = يفتح الرابط
arguments = الوسائط
no-arguments = بلا وسائط.
outside-schema = ليس في مخطط الأداة
characters = { $count ->
    [zero] لا أحرف
    [one] حرف واحد
    [two] حرفان
    [few] { $count } أحرف
   *[other] { $count } حرفًا
}
needed-by = قيم مطلوبة لـ
allow-once = اسمح مرة واحدة
allow-in-conversation = اسمح في هذه المحادثة
always-allow = اسمح دائمًا
use-suggested = استخدم المقترح
use-default = استخدم «{ $label }»
approve-draft = اعتمد المسودة
submit-defaults = أرسل القيم المقترحة
question-of = السؤال { $number } من { $total }

pick-files = { $count ->
    [one] اختر ملفًا واحدًا
    [two] اختر ملفين
    [few] اختر { $count } ملفات
   *[other] اختر { $count } ملفًا
}
pick-files-range = اختر من { $min } إلى { $max } ملفات
uploading = جارٍ رفع { $name }
remove = إزالة
draft = المسودة
choose-placeholder = اختر…

## على الشاشات الصغيرة
handoff-edit = حرّر على هاتفك
handoff-form = املأه على هاتفك
handoff-files = ارفع الملفات من هاتفك
handoff-continue = تابع على هاتفك

## الوقت المتبقي
expires-in-minutes = { $minutes ->
    [zero] ينتهي خلال أقل من دقيقة
    [one] ينتهي خلال دقيقة واحدة
    [two] ينتهي خلال دقيقتين
    [few] ينتهي خلال { $minutes } دقائق
   *[other] ينتهي خلال { $minutes } دقيقة
}
expires-soon = ينتهي خلال أقل من دقيقة
time-is-up = انتهى الوقت: هذا السؤال يُغلق الآن

digit-group = ٬

## ملخصات الأسئلة المنتهية
you-chose = اخترت: { $choices }
you-chose-none = لم تختر أيًّا من الخيارات.
you-answered = أجبت عن هذا السؤال.
you-skipped = تخطّيت هذا السؤال.
you-confirmed = أكّدت: { $label }
you-declined = رفضت: { $label }
draft-as-is = اعتمدت المسودة كما هي
draft-edited = { $count ->
    [one] حرّرت المسودة (حرف واحد)
    [two] حرّرت المسودة (حرفان)
    [few] حرّرت المسودة ({ $shown } أحرف)
   *[other] حرّرت المسودة ({ $shown } حرفًا)
}
form-sent = { $count ->
    [one] أرسلت النموذج (حقل واحد)
    [two] أرسلت النموذج (حقلان)
    [few] أرسلت النموذج ({ $shown } حقول)
   *[other] أرسلت النموذج ({ $shown } حقلًا)
}
files-sent = { $count ->
    [0] لم ترسل أي ملف
    [one] أرسلت ملفًا واحدًا: { $names }
   *[other] أرسلت { $count } ملفات: { $names }
}
question-answered = { $question } { $answers }
answers-sent = { $count ->
    [one] أجبت عن سؤال واحد
    [two] أجبت عن سؤالين
    [few] أجبت عن { $shown } أسئلة
   *[other] أجبت عن { $shown } سؤالًا
}
own-answer = إجابتك: { $text }
not-answered-message = لم تتم الإجابة: أرسلت رسالة بدلًا من ذلك.
not-asked = لم يُطرح: طرح المساعد سؤالًا آخر أولًا.
not-answered-stopped = لم تتم الإجابة: أوقفت الرد.
not-answered-withdrawn = لم تتم الإجابة: سحب الخادم سؤاله.
expired-nothing-done = انتهت المهلة: لم يُجب أحد في الوقت المحدد، فلم يُنفَّذ شيء.
not-answered-restart = لم تتم الإجابة في الوقت المحدد: أُعيد تشغيل Palaver فانتهى سؤال الخادم معه.
cancelled = أُلغي هذا السؤال.
expired = انتهت المهلة: لم يُجب أحد في الوقت المحدد.
waiting = بانتظار إجابتك.
