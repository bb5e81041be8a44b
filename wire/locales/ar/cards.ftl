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
impact-summary = ما يفعله:
impact-undo = للتراجع عنه:
impact-cannot-undo = لا يمكن التراجع عن ذلك.
impact-cost = التكلفة المقدّرة:
server-hints = يصفه الخادم بأنه:
hint-read-only = للقراءة فقط
hint-destructive = قد يكون مدمّرًا
hint-additive = يضيف دون أن يحذف
hint-idempotent = تشغيله مرتين كتشغيله مرة واحدة
hint-open-world = يصل إلى أنظمة خارجية
hint-closed-world = يعمل داخل نظامه فقط
allow-once = اسمح مرة واحدة
deny = رفض
app-call = يريد تطبيق خادم MCP { $server } تشغيل أداة
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

## مشكلات الإجابة، باسم الحقل
files = الملفات
answer-needed = { $label } مطلوب.
answer-misfit = { $label }: هذه الإجابة غير مناسبة.
answer-at-most = يجب ألا يزيد { $label } على { $max }.
answer-at-least = يجب ألا يقل { $label } عن { $min }.
answer-whole = يقبل { $label } الأعداد الصحيحة فقط.
answer-number = يحتاج { $label } إلى رقم.
answer-email = يحتاج { $label } إلى عنوان بريد إلكتروني، مثل ada@example.com.
answer-url = يحتاج { $label } إلى عنوان ويب يبدأ بـ https://.
answer-phone = يحتاج { $label } إلى رقم هاتف، مثل +971 4 123 4567.
answer-date = يحتاج { $label } إلى تاريخ، مثل 2026-10-01.
answer-time = يحتاج { $label } إلى وقت بين 00:00 و23:59، مثل 09:30.
answer-datetime = يحتاج { $label } إلى تاريخ ووقت، مثل 2026-10-01 09:30.
answer-too-long = يجب ألا يزيد { $label } على { $count } حرفًا.
answer-too-short = يحتاج { $label } إلى { $count } أحرف على الأقل.
answer-pattern = { $label } غير مكتوب بالصيغة المطلوبة.
answer-pattern-helped = { $label } غير مكتوب بالصيغة المطلوبة: { $helper }
answer-option = { $label }: هذا الاختيار غير متاح.
answer-at-least-one = يحتاج { $label } إلى إجابة واحدة على الأقل.
answer-just-one = يقبل { $label } إجابة واحدة.
answer-pick-exactly = اختر { $count } بالضبط.
answer-pick-at-most = اختر { $count } على الأكثر.
answer-pick-at-least = اختر { $count } على الأقل.
answer-file-too-large = { $name } أكبر مما يُسمح به للملف هنا.
answer-file-type = نوع { $name } لا يقبله هذا السؤال.
answer-file-contents = يقول { $name } إنه { $type }، لكن محتواه شيء آخر.
